import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZMessageSchema } from '@zapdesk/shared/messaging';
import { ZMentionListQuerySchema, ZMentionListSchema, ZMentionSchema, ZNoteCreateSchema } from '@zapdesk/shared/notes';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { authenticate, currentUser } from '../../core/http/auth-hooks.js';
import * as service from './notes.service.js';

export const notesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['notes'];
  const onRequest = authenticate(ctx);

  app.post('/tickets/:id/notes', { schema: { tags, params: ZIdParamsSchema, body: ZNoteCreateSchema, response: { 201: ZMessageSchema } }, onRequest }, async (req, reply) =>
    reply.code(201).send(await service.createNote(ctx, currentUser(req), req.params.id, req.body)),
  );

  app.get('/mentions', { schema: { tags, querystring: ZMentionListQuerySchema, response: { 200: ZMentionListSchema } }, onRequest }, (req) => service.listMentions(ctx, currentUser(req), req.query));

  const mark = z.object({ id: ZIdParamsSchema.shape.id, action: z.enum(['read', 'done'], 'INVALID') });
  app.put('/mentions/:id/:action', { schema: { tags, params: mark, response: { 200: ZMentionSchema } }, onRequest }, (req) =>
    service.markMention(ctx, currentUser(req), req.params.id, req.params.action),
  );
};
