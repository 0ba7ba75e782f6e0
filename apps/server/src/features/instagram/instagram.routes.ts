/**
 * Instagram: /InstaDirect's send (signed-in users), the spec's `/sendDirect` (a session or the
 * userApiToken, never open), and Meta's webhook: the subscription check (GET) and the signed
 * deliveries (POST), answered only once every message is stored.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCampaignCreatedSchema, ZToolAcceptedSchema } from '@zapdesk/shared/campaigns';
import { ZDirectCreateSchema, ZSendDirectApiSchema } from '@zapdesk/shared/instagram';
import type { SessionManager } from '../../channels/session-manager.js';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { sendAudit } from '../campaigns/campaign-audit.js';
import { sessionActor } from '../campaigns/campaigns.routes.js';
import { actorOf, sessionOrApiToken, toolRateLimit } from '../campaigns/tool-auth.js';
import * as service from './instagram.service.js';

/** Meta's subscription check: each parameter once, as text. */
const ZSubscriptionCheckSchema = z.object({
  'hub.mode': z.string('INVALID').max(50, 'TOO_LONG').optional(),
  'hub.verify_token': z.string('INVALID').max(500, 'TOO_LONG').optional(),
  'hub.challenge': z.string('INVALID').max(500, 'TOO_LONG').optional(),
});

export const instagramRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; sessions: SessionManager }> = async (app, { ctx, sessions }) => {
  const tags = ['Instagram'];
  const audit = { action: 'instagram.send', target: 'campaign', pick: sendAudit } as const;

  app.post(
    '/instagram/direct',
    { schema: { tags, body: ZDirectCreateSchema, response: { 201: ZCampaignCreatedSchema } }, onRequest: requirePermission(ctx, 'instagram'), config: { audit } },
    async (req, reply) => reply.code(201).send(await service.createDirectCampaign(ctx, sessions, sessionActor(req), req.body)),
  );

  // The address to paste into Meta's webhook settings: under PUBLIC_URL, else the address this request came to.
  app.get('/instagram/webhook-address', { schema: { tags, response: { 200: z.object({ url: z.string(), fromPublicUrl: z.boolean() }) } }, onRequest: requirePermission(ctx, 'instagram') }, (req) => {
    const base = ctx.config.publicUrl ?? `${req.protocol}://${req.host}`;
    return { url: new URL('/api/webhooks/instagram', base).toString(), fromPublicUrl: ctx.config.publicUrl !== undefined };
  });

  app.post(
    '/sendDirect',
    {
      schema: {
        tags: ['tool API'],
        security: [{ bearer: [] }],
        description:
          'A direct message to one Instagram user who has written to the account. Example: `{"userIg":"@cliente","message":"Olá!","token":"<userApiToken>"}`; `ticketwhatsappId` picks the Instagram connection (the first one otherwise).',
        body: ZSendDirectApiSchema,
        response: { 202: ZToolAcceptedSchema },
      },
      preValidation: sessionOrApiToken(ctx, 'instagram'),
      config: { rateLimit: toolRateLimit, audit },
    },
    async (req, reply) => {
      if (req.body.userIg.includes('\n')) throw new AppError('ERR_VALIDATION', { message: 'One user in `userIg`.', fields: { userIg: 'INVALID' } });
      const { campaign } = await service.createDirectCampaign(ctx, sessions, actorOf(req), { users: req.body.userIg, message: req.body.message, whatsappId: req.body.ticketwhatsappId });
      return reply.code(202).send({ id: campaign.id, status: campaign.status });
    },
  );

  // ---------- Meta's webhook (no session: the verify token and the signature) ----------
  await app.register(async (hooks) => {
    // Deliveries are signed over their exact bytes: the body is kept as received.
    hooks.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) => done(null, body));
    hooks.get('/webhooks/instagram', { schema: { hide: true } }, async (req, reply) => {
      const parsed = ZSubscriptionCheckSchema.safeParse(req.query);
      if (!parsed.success) throw new AppError('ERR_VALIDATION', { message: 'Each of hub.mode, hub.verify_token and hub.challenge once, as text.' });
      const query = parsed.data;
      const challenge = await service.verifySubscription(ctx, { mode: query['hub.mode'], verifyToken: query['hub.verify_token'], challenge: query['hub.challenge'] });
      return reply.type('text/plain').send(challenge);
    });
    // The signature is checked over these bytes before anything reads them (see receiveWebhook).
    hooks.post('/webhooks/instagram', { schema: { hide: true } }, async (req, reply) => {
      const raw = typeof req.body === 'string' ? req.body : '';
      const signature = req.headers['x-hub-signature-256'];
      await service.receiveWebhook(ctx, sessions, raw, typeof signature === 'string' ? signature : undefined);
      return reply.code(200).send('EVENT_RECEIVED');
    });
  });
};
