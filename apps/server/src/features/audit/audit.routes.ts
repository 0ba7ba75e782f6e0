/**
 * The audit log for admins: the list with its filters and the CSV export. There is deliberately
 * no route that edits or deletes a row: old rows leave only with the retention sweep.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZAuditFilterSchema, ZAuditListQuerySchema, ZAuditListSchema } from '@zapdesk/shared/audit';
import type { AppContext } from '../../core/context.js';
import { compact, numberField, textField } from '../../core/http/audit-hook.js';
import { requireAdmin } from '../../core/http/auth-hooks.js';
import * as service from './audit.service.js';

export const auditRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['audit'];
  const onRequest = requireAdmin(ctx);

  app.get('/audit', { schema: { tags, querystring: ZAuditListQuerySchema, response: { 200: ZAuditListSchema } }, onRequest }, (req) => service.listAudit(ctx, req.query));

  // Taking the log away is itself recorded, with the filters it was taken with.
  app.get(
    '/audit/export',
    {
      schema: { tags, querystring: ZAuditFilterSchema, produces: ['text/csv'] },
      onRequest,
      config: {
        audit: {
          action: 'audit.export',
          target: 'auditLog',
          pick: ({ query }) => ({
            detail: compact({
              from: textField(query, 'from'),
              to: textField(query, 'to'),
              userId: numberField(query, 'userId'),
              action: textField(query, 'action'),
              outcome: textField(query, 'outcome'),
              search: textField(query, 'searchParam'),
            }),
          }),
        },
      },
    },
    async (req, reply) => {
      const csv = await service.exportAuditCsv(ctx, req.query);
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="zdg.csv"').send(csv);
    },
  );
};
