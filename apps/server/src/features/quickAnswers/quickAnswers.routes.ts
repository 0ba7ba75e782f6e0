import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParamsSchema, ZListQuerySchema, ZQuickAnswerInputSchema, ZQuickAnswerListSchema, ZQuickAnswerSchema } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { authenticate } from '../../core/http/auth-hooks.js';
import * as service from './quickAnswers.service.js';

/** Quick answers are shared by the whole team: any logged-in user manages them. */
export const quickAnswersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['quickAnswers'];
  const onRequest = authenticate(ctx);

  // whaticket's Quick Answers page and its reply box ask for '/quickAnswers/': the same list by an explicit alias (hidden from the docs).
  for (const url of ['/quickAnswers', '/quickAnswers/']) {
    app.get(url, { schema: { tags, hide: url.endsWith('/'), querystring: ZListQuerySchema, response: { 200: ZQuickAnswerListSchema } }, onRequest }, (req) => service.listQuickAnswers(ctx, req.query));
  }
  app.get('/quickAnswers/:id', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZQuickAnswerSchema } }, onRequest }, (req) => service.getQuickAnswer(ctx, req.params.id));
  app.post('/quickAnswers', { schema: { tags, body: ZQuickAnswerInputSchema, response: { 201: ZQuickAnswerSchema } }, onRequest }, async (req, reply) =>
    reply.code(201).send(await service.createQuickAnswer(ctx, req.body)),
  );
  app.put('/quickAnswers/:id', { schema: { tags, params: ZIdParamsSchema, body: ZQuickAnswerInputSchema, response: { 200: ZQuickAnswerSchema } }, onRequest }, (req) =>
    service.updateQuickAnswer(ctx, req.params.id, req.body),
  );
  app.delete('/quickAnswers/:id', { schema: { tags, params: ZIdParamsSchema, response: { 204: z.null() } }, onRequest }, async (req, reply) => {
    await service.deleteQuickAnswer(ctx, req.params.id);
    return reply.code(204).send(null);
  });
};
