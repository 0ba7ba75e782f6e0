import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZQueueAssignmentInputSchema, ZQueueAssignmentSchema } from '@zapdesk/shared/assignment';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { requireAdmin } from '../../core/http/auth-hooks.js';
import * as service from './assignment.service.js';

/** A queue's auto-assignment (admins): `GET` and `PUT /queue/{id}/assignment {enabled, maxPerAgent}`. */
export const assignmentRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['queues'];

  app.get('/queue/:id/assignment', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZQueueAssignmentSchema } }, onRequest: requireAdmin(ctx) }, (req) =>
    service.getQueueAssignment(ctx, req.params.id),
  );

  app.put(
    '/queue/:id/assignment',
    {
      schema: { tags, params: ZIdParamsSchema, body: ZQueueAssignmentInputSchema, response: { 200: ZQueueAssignmentSchema } },
      onRequest: requireAdmin(ctx),
      config: { audit: { action: 'queues.update', target: 'queue' } },
    },
    (req) => service.saveQueueAssignment(ctx, req.params.id, req.body),
  );
};
