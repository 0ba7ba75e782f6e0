import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZBusinessHoursEntrySchema, ZBusinessHoursSettingsSchema } from '@zapdesk/shared/business-hours';
import type { AppContext } from '../../core/context.js';
import { numberField, type AuditInput } from '../../core/http/audit-hook.js';
import { requireAdmin } from '../../core/http/auth-hooks.js';
import * as service from './business-hours.service.js';

const ZQueueParamsSchema = z.object({ queueId: z.coerce.number().int().positive() });

/** Recorded as a change of settings (the default) or of the queue (its own hours). */
const defaultAudit = { action: 'settings.update', target: 'setting', pick: () => ({ targetId: 'businessHours', targetName: 'businessHours' }) } as const;
const queueAudit = { action: 'queues.update', target: 'queue', pick: (input: AuditInput) => ({ targetId: numberField(input.params, 'queueId') ?? null }) } as const;

/** Admin routes: /business-hours (all), /business-hours/default and /business-hours/queues/:queueId. */
export const businessHoursRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['business-hours'];
  const onRequest = requireAdmin(ctx);

  app.get('/business-hours', { schema: { tags, response: { 200: z.array(ZBusinessHoursEntrySchema) } }, onRequest }, () => service.listHours(ctx));

  app.get('/business-hours/default', { schema: { tags, response: { 200: ZBusinessHoursEntrySchema } }, onRequest }, () => service.getHours(ctx, null));
  app.put('/business-hours/default', { schema: { tags, body: ZBusinessHoursSettingsSchema, response: { 200: ZBusinessHoursEntrySchema } }, onRequest, config: { audit: defaultAudit } }, (req) =>
    service.saveHours(ctx, null, req.body),
  );
  app.delete('/business-hours/default', { schema: { tags, response: { 204: z.null() } }, onRequest, config: { audit: defaultAudit } }, async (_req, reply) => {
    await service.removeHours(ctx, null);
    return reply.code(204).send(null);
  });

  app.get('/business-hours/queues/:queueId', { schema: { tags, params: ZQueueParamsSchema, response: { 200: ZBusinessHoursEntrySchema } }, onRequest }, (req) =>
    service.getHours(ctx, req.params.queueId),
  );
  app.put(
    '/business-hours/queues/:queueId',
    {
      schema: { tags, params: ZQueueParamsSchema, body: ZBusinessHoursSettingsSchema, response: { 200: ZBusinessHoursEntrySchema } },
      onRequest,
      config: { audit: queueAudit },
    },
    (req) => service.saveHours(ctx, req.params.queueId, req.body),
  );
  app.delete('/business-hours/queues/:queueId', { schema: { tags, params: ZQueueParamsSchema, response: { 204: z.null() } }, onRequest, config: { audit: queueAudit } }, async (req, reply) => {
    await service.removeHours(ctx, req.params.queueId);
    return reply.code(204).send(null);
  });
};
