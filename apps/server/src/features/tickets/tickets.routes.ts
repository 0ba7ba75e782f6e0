import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TICKET_STATUSES } from '@zapdesk/shared/domain';
import { ZTicketListQuerySchema, ZTicketListSchema, ZTicketSchema } from '@zapdesk/shared/messaging';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { authenticate, currentUser } from '../../core/http/auth-hooks.js';
import * as service from './tickets.service.js';

export const ticketsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; sessions: SessionManager }> = async (app, { ctx, sessions }) => {
  const tags = ['tickets'];
  const onRequest = authenticate(ctx);

  app.get('/tickets', { schema: { tags, querystring: ZTicketListQuerySchema, response: { 200: ZTicketListSchema } }, onRequest }, (req) =>
    service.listTickets(ctx, currentUser(req), req.query),
  );

  app.get('/tickets/:id', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZTicketSchema } }, onRequest }, (req) =>
    service.getVisibleTicket(ctx, currentUser(req), req.params.id),
  );

  app.put(
    '/tickets/:id',
    { schema: { tags, params: ZIdParamsSchema, body: z.object({ status: z.enum(TICKET_STATUSES, 'INVALID') }), response: { 200: ZTicketSchema } }, onRequest },
    (req) => service.changeStatus(ctx, sessions, currentUser(req), req.params.id, req.body.status),
  );
};
