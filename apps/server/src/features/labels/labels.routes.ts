import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZLabelInputSchema, ZLabelLinkParamsSchema, ZLabelLinkSchema, ZLabelSchema } from '@zapdesk/shared/labels';
import { ZTicketSchema } from '@zapdesk/shared/messaging';
import { ZContactSchema, ZIdParamsSchema } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { replyIdAndName } from '../../core/http/audit-hook.js';
import { authenticate, currentUser, requireAdmin } from '../../core/http/auth-hooks.js';
import * as service from './labels.service.js';

export const labelsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['labels'];
  const onRequest = authenticate(ctx);

  app.get('/labels', { schema: { tags, response: { 200: z.array(ZLabelSchema) } }, onRequest }, () => service.listLabels(ctx));

  app.post(
    '/labels',
    { schema: { tags, body: ZLabelInputSchema, response: { 201: ZLabelSchema } }, onRequest: requireAdmin(ctx), config: { audit: { action: 'labels.create', target: 'label', pick: replyIdAndName } } },
    async (req, reply) => reply.code(201).send(await service.createLabel(ctx, req.body)),
  );

  app.put(
    '/labels/:id',
    {
      schema: { tags, params: ZIdParamsSchema, body: ZLabelInputSchema, response: { 200: ZLabelSchema } },
      onRequest: requireAdmin(ctx),
      config: { audit: { action: 'labels.update', target: 'label', pick: replyIdAndName } },
    },
    (req) => service.updateLabel(ctx, req.params.id, req.body),
  );

  app.delete(
    '/labels/:id',
    { schema: { tags, params: ZIdParamsSchema, response: { 204: z.null() } }, onRequest: requireAdmin(ctx), config: { audit: { action: 'labels.delete', target: 'label' } } },
    async (req, reply) => {
      await service.deleteLabel(ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );

  // Whoever may see the ticket or the contact labels it; the answer is the ticket or contact as it now is.
  app.post('/tickets/:id/labels', { schema: { tags, params: ZIdParamsSchema, body: ZLabelLinkSchema, response: { 200: ZTicketSchema } }, onRequest }, (req) =>
    service.labelTicket(ctx, currentUser(req), req.params.id, req.body.labelId, true),
  );
  app.delete('/tickets/:id/labels/:labelId', { schema: { tags, params: ZLabelLinkParamsSchema, response: { 200: ZTicketSchema } }, onRequest }, (req) =>
    service.labelTicket(ctx, currentUser(req), req.params.id, req.params.labelId, false),
  );
  app.post('/contacts/:id/labels', { schema: { tags, params: ZIdParamsSchema, body: ZLabelLinkSchema, response: { 200: ZContactSchema } }, onRequest }, (req) =>
    service.labelContact(ctx, currentUser(req), req.params.id, req.body.labelId, true),
  );
  app.delete('/contacts/:id/labels/:labelId', { schema: { tags, params: ZLabelLinkParamsSchema, response: { 200: ZContactSchema } }, onRequest }, (req) =>
    service.labelContact(ctx, currentUser(req), req.params.id, req.params.labelId, false),
  );
};
