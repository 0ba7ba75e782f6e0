import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZReportOptionsSchema, ZReportQuerySchema, ZReportSchema } from '@zapdesk/shared/reports';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { reportCsv } from './reports-csv.js';
import { filterOptions, report } from './reports.service.js';

/** The Reports page: admins and the roles holding `reports`; every queue's tickets. */
export const reportsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['reports'];
  const onRequest = requirePermission(ctx, 'reports');
  app.get('/reports', { schema: { tags, querystring: ZReportQuerySchema, response: { 200: ZReportSchema } }, onRequest }, (req) => report(ctx, req.query));
  app.get('/reports/options', { schema: { tags, response: { 200: ZReportOptionsSchema } }, onRequest }, () => filterOptions(ctx));
  app.get('/reports/export', { schema: { tags, querystring: ZReportQuerySchema, produces: ['text/csv'] }, onRequest }, async (req, reply) => {
    const csv = reportCsv(await report(ctx, req.query));
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="zdg.csv"').send(csv);
  });
};
