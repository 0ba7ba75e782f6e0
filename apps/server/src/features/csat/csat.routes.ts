import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCsatSettingsInputSchema, ZCsatSettingsSchema, ZTicketRatingSchema } from '@zapdesk/shared/csat';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import type { SessionManager } from '../../channels/session-manager.js';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { authenticate, currentUser } from '../../core/http/auth-hooks.js';
import * as service from './csat.service.js';
import { listTicketRatings } from './ticket-ratings.service.js';

export const csatRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; sessions: SessionManager }> = async (app, { ctx }) => {
  const tags = ['satisfaction'];
  app.get('/whatsapp/:id/csat', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZCsatSettingsSchema } }, onRequest: requirePermission(ctx, 'connectionsView') }, (req) =>
    service.getCsatSettings(ctx, req.params.id),
  );
  app.put(
    '/whatsapp/:id/csat',
    {
      schema: { tags, params: ZIdParamsSchema, body: ZCsatSettingsInputSchema, response: { 200: ZCsatSettingsSchema } },
      onRequest: requirePermission(ctx, 'connectionsManage'),
      config: { audit: { action: 'whatsapps.update', target: 'whatsapp' } },
    },
    (req) => service.updateCsatSettings(ctx, req.params.id, req.body),
  );
  app.get('/tickets/:id/ratings', { schema: { tags, params: ZIdParamsSchema, response: { 200: z.array(ZTicketRatingSchema) } }, onRequest: authenticate(ctx) }, (req) =>
    listTicketRatings(ctx, currentUser(req), req.params.id),
  );
};
