import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParamsSchema, ZQueueInputSchema, ZQueueSchema } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { replyIdAndName } from '../../core/http/audit-hook.js';
import { authenticate, requireAdmin } from '../../core/http/auth-hooks.js';
import * as service from './queues.service.js';

export const queuesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['queues'];

  app.get('/queue', { schema: { tags, response: { 200: z.array(ZQueueSchema) } }, onRequest: authenticate(ctx) }, () => service.listQueues(ctx));

  app.get('/queue/:id', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZQueueSchema } }, onRequest: authenticate(ctx) }, (req) => service.getQueue(ctx, req.params.id));

  app.post(
    '/queue',
    { schema: { tags, body: ZQueueInputSchema, response: { 201: ZQueueSchema } }, onRequest: requireAdmin(ctx), config: { audit: { action: 'queues.create', target: 'queue', pick: replyIdAndName } } },
    async (req, reply) => reply.code(201).send(await service.createQueue(ctx, req.body)),
  );

  app.put(
    '/queue/:id',
    {
      schema: { tags, params: ZIdParamsSchema, body: ZQueueInputSchema, response: { 200: ZQueueSchema } },
      onRequest: requireAdmin(ctx),
      config: { audit: { action: 'queues.update', target: 'queue', pick: replyIdAndName } },
    },
    (req) => service.updateQueue(ctx, req.params.id, req.body),
  );

  app.delete(
    '/queue/:id',
    { schema: { tags, params: ZIdParamsSchema, response: { 204: z.null() } }, onRequest: requireAdmin(ctx), config: { audit: { action: 'queues.delete', target: 'queue' } } },
    async (req, reply) => {
      await service.deleteQueue(ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );
};
