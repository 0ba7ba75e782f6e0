import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZDashboardQuerySchema, ZDashboardSchema } from '@zapdesk/shared/messaging';
import type { AppContext } from '../../core/context.js';
import { authenticate, currentUser } from '../../core/http/auth-hooks.js';
import { dashboard } from './dashboard.service.js';

export const dashboardRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Without `range`, the spec's view alone; with it, the figures over that period too.
  app.get('/dashboard', { schema: { tags: ['dashboard'], querystring: ZDashboardQuerySchema, response: { 200: ZDashboardSchema } }, onRequest: authenticate(ctx) }, (req) =>
    dashboard(ctx, currentUser(req), { range: req.query.range }),
  );
};
