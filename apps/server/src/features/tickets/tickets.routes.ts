import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZTicketCreateSchema, ZTicketListQuerySchema, ZTicketListSchema, ZTicketProtocolSchema, ZTicketSchema, ZTicketUpdateSchema } from '@zapdesk/shared/messaging';
import { MAX_ID } from '@zapdesk/shared/domain';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import type { SessionManager } from '../../channels/session-manager.js';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { compact, numberField } from '../../core/http/audit-hook.js';
import { authenticate, currentUser } from '../../core/http/auth-hooks.js';
import { sendJsonOnce } from '../../core/http/json-once.js';
import { createTicket } from './tickets-create.service.js';
import * as service from './tickets.service.js';

export const ticketsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; sessions: SessionManager }> = async (app, { ctx, sessions }) => {
  const tags = ['tickets'];
  const onRequest = authenticate(ctx);

  app.get('/tickets', { schema: { tags, querystring: ZTicketListQuerySchema, response: { 200: ZTicketListSchema } }, onRequest }, async (req, reply) =>
    sendJsonOnce(reply, ZTicketListSchema, await service.listTickets(ctx, currentUser(req), req.query)),
  );

  app.get('/tickets/:id', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZTicketSchema } }, onRequest }, (req) => service.getReadableTicket(ctx, currentUser(req), req.params.id));

  // A status change (accept, return, resolve, reopen), or a transfer to a user, queue and/or connection.
  app.put('/tickets/:id', { schema: { tags, params: ZIdParamsSchema, body: ZTicketUpdateSchema, response: { 200: ZTicketSchema } }, onRequest }, (req) =>
    service.updateTicket(ctx, sessions, currentUser(req), req.params.id, req.body),
  );

  // 'Protocolo': the contact gets a service-protocol number, then the ticket closes like Resolve.
  app.post('/tickets/:id/protocol', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZTicketProtocolSchema } }, onRequest }, (req) =>
    service.closeWithProtocol(ctx, sessions, currentUser(req), req.params.id),
  );

  app.post('/tickets', { schema: { tags, body: ZTicketCreateSchema, response: { 201: ZTicketSchema } }, onRequest }, async (req, reply) =>
    reply.code(201).send(await createTicket(ctx, currentUser(req), req.body)),
  );

  app.delete(
    '/tickets/:id',
    { schema: { tags, params: ZIdParamsSchema, response: { 204: z.null() } }, onRequest: requirePermission(ctx, 'ticketsDelete'), config: { audit: { action: 'tickets.delete', target: 'ticket' } } },
    async (req, reply) => {
      await service.deleteTicket(ctx, currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  // 'Close all': every open and waiting ticket the user may see; `others: false` leaves those other agents work on.
  app.post(
    '/ticketsClosed',
    {
      schema: { tags, body: z.object({ others: z.boolean('INVALID').optional() }).nullish(), response: { 200: z.object({ closed: z.number() }) } },
      onRequest,
      config: { audit: { action: 'tickets.close_all', pick: ({ reply }) => ({ detail: compact({ closed: numberField(reply, 'closed') }) }) } },
    },
    (req) => service.closeAllTickets(ctx, currentUser(req), { others: req.body?.others }),
  );
  app.get('/ticketsClosed/summary', { schema: { tags, response: { 200: z.object({ own: z.number(), waiting: z.number(), others: z.number() }) } }, onRequest }, (req) =>
    service.closeAllSummary(ctx, currentUser(req)),
  );

  // The import/export panel shows which connection a ticket is on.
  app.post(
    '/zdgGetWppId',
    {
      schema: { tags, body: z.object({ ticketid: z.coerce.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID') }), response: { 200: z.object({ whatsappId: z.number() }) } },
      onRequest,
    },
    async (req) => ({ whatsappId: (await service.getVisibleTicket(ctx, currentUser(req), req.body.ticketid)).whatsappId }),
  );
};
