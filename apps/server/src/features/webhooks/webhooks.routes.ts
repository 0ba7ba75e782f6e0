/** Outgoing webhooks: admins register endpoints and look after their deliveries. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZWebhookDeliveryDetailSchema,
  ZWebhookDeliveryListQuerySchema,
  ZWebhookDeliveryListSchema,
  ZWebhookDeliveryParamsSchema,
  ZWebhookDeliverySchema,
  ZWebhookInputSchema,
  ZWebhookParamsSchema,
  ZWebhookSchema,
  ZWebhookUpdateSchema,
  ZWebhookWithSecretSchema,
} from '@zapdesk/shared/webhooks';
import { compact, field, numberField, textField, type AuditInput, type AuditPick } from '../../core/http/audit-hook.js';
import type { AppContext } from '../../core/context.js';
import { requireAdmin } from '../../core/http/auth-hooks.js';
import * as service from './webhooks.service.js';

/** The endpoint's id and address, and the events it listens to; never its secret. */
function endpointFacts({ reply, params }: AuditInput): AuditPick {
  const events = field(reply, 'events');
  return {
    targetId: numberField(reply, 'id') ?? numberField(params, 'id') ?? null,
    targetName: textField(reply, 'url') ?? null,
    detail: compact({ events: Array.isArray(events) ? events.filter((e): e is string => typeof e === 'string') : undefined }),
  };
}

function deliveryFacts({ reply, params }: AuditInput): AuditPick {
  return { targetId: numberField(params, 'id') ?? null, detail: compact({ deliveryId: textField(reply, 'id') ?? textField(params, 'deliveryId'), event: textField(reply, 'event') }) };
}

export const webhooksRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['webhooks'];
  const onRequest = requireAdmin(ctx);
  const params = ZWebhookParamsSchema;

  app.get('/webhooks', { schema: { tags, response: { 200: z.array(ZWebhookSchema) } }, onRequest }, () => service.listWebhooks(ctx));

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        description: 'Registers an endpoint. The answer holds its secret (given, or 32 random bytes in hex): the only time it is shown.',
        body: ZWebhookInputSchema,
        response: { 201: ZWebhookWithSecretSchema },
      },
      onRequest,
      config: { audit: { action: 'webhooks.create', target: 'webhook', pick: endpointFacts } },
    },
    async (req, reply) => reply.code(201).send(await service.createWebhook(ctx, req.body)),
  );

  app.put(
    '/webhooks/:id',
    {
      schema: { tags, params, body: ZWebhookUpdateSchema, response: { 200: ZWebhookSchema } },
      onRequest,
      config: { audit: { action: 'webhooks.update', target: 'webhook', pick: endpointFacts } },
    },
    (req) => service.updateWebhook(ctx, req.params.id, req.body),
  );

  app.delete(
    '/webhooks/:id',
    { schema: { tags, description: 'Removes the endpoint and its deliveries.', params }, onRequest, config: { audit: { action: 'webhooks.delete', target: 'webhook' } } },
    async (req, reply) => {
      await service.deleteWebhook(ctx, req.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/webhooks/:id/secret',
    {
      schema: { tags, description: 'A new secret, shown this once; deliveries from now on are signed with it.', params, response: { 200: ZWebhookWithSecretSchema } },
      onRequest,
      config: { audit: { action: 'webhooks.secret_rotate', target: 'webhook', pick: endpointFacts } },
    },
    (req) => service.rotateSecret(ctx, req.params.id),
  );

  app.post(
    '/webhooks/:id/ping',
    {
      schema: { tags, description: "Stores a 'ping' delivery and sends it like the others.", params, response: { 201: ZWebhookDeliverySchema } },
      onRequest,
      config: { audit: { action: 'webhooks.ping', target: 'webhook', pick: deliveryFacts } },
    },
    async (req, reply) => reply.code(201).send(await service.pingWebhook(ctx, req.params.id)),
  );

  app.get(
    '/webhooks/:id/deliveries',
    { schema: { tags, description: 'The endpoint’s deliveries, newest first.', params, querystring: ZWebhookDeliveryListQuerySchema, response: { 200: ZWebhookDeliveryListSchema } }, onRequest },
    (req) => service.listDeliveries(ctx, req.params.id, req.query),
  );

  app.get('/webhooks/:id/deliveries/:deliveryId', { schema: { tags, params: ZWebhookDeliveryParamsSchema, response: { 200: ZWebhookDeliveryDetailSchema } }, onRequest }, (req) =>
    service.deliveryDetail(ctx, req.params.id, req.params.deliveryId),
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/resend',
    {
      schema: { tags, description: 'Back to pending, due now, same id; the retry window starts again.', params: ZWebhookDeliveryParamsSchema, response: { 200: ZWebhookDeliverySchema } },
      onRequest,
      config: { audit: { action: 'webhooks.resend', target: 'webhook', pick: deliveryFacts } },
    },
    (req) => service.resendDelivery(ctx, req.params.id, req.params.deliveryId),
  );
};
