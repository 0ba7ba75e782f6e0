/**
 * SMS and calls: the /SMS and /VoiceCall pages (signed-in users), the settings page's
 * credentials test (admins), the spec's `/sendSms` and `/makeVoiceCall` (a session or the
 * userApiToken, never open: one-recipient campaigns answered 202 with the id), the SMS and
 * calls a contact was sent, and Vonage's signed webhooks.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCampaignCreatedSchema, ZToolAcceptedSchema } from '@zapdesk/shared/campaigns';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import { ZCallCreateSchema, ZPhoneApiSchema, ZPhoneSendSchema, ZSmsCreateSchema, ZVonageBalanceSchema, type TPhoneApi } from '@zapdesk/shared/vonage';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { authenticate, currentUser, requireAdmin } from '../../core/http/auth-hooks.js';
import { sendAudit } from '../campaigns/campaign-audit.js';
import { sessionActor } from '../campaigns/campaigns.routes.js';
import { actorOf, sessionOrApiToken, toolRateLimit } from '../campaigns/tool-auth.js';
import { getVisibleContact } from '../contacts/contacts.service.js';
import { CALL_WEBHOOK_PATH, SMS_WEBHOOK_PATH } from './phone-send.js';
import { getBalance } from './vonage.client.js';
import { receiveCallEvent, receiveSmsReceipt } from './vonage-webhook.service.js';
import { flatParams, parseWebhookBody } from './vonage-webhooks.js';
import * as service from './vonage.service.js';

const phoneAudit = (kind: 'sms' | 'call') => ({ action: kind === 'sms' ? 'sms.send' : 'calls.place', target: 'campaign', pick: sendAudit }) as const;

export const vonageRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['SMS and calls'];
  const onRequest = authenticate(ctx);
  const sends = requirePermission(ctx, 'phone');

  app.post('/sms', { schema: { tags, body: ZSmsCreateSchema, response: { 201: ZCampaignCreatedSchema } }, onRequest: sends, config: { audit: phoneAudit('sms') } }, async (req, reply) =>
    reply.code(201).send(await service.createPhoneCampaign(ctx, sessionActor(req), { kind: 'sms', ...req.body })),
  );

  app.post('/calls', { schema: { tags, body: ZCallCreateSchema, response: { 201: ZCampaignCreatedSchema } }, onRequest: sends, config: { audit: phoneAudit('call') } }, async (req, reply) =>
    reply.code(201).send(await service.createPhoneCampaign(ctx, sessionActor(req), { kind: 'call', ...req.body })),
  );

  app.post('/vonage/balance', { schema: { tags, response: { 200: ZVonageBalanceSchema } }, onRequest: requireAdmin(ctx) }, () => getBalance(ctx));

  app.get('/contacts/:id/phone-sends', { schema: { tags, params: ZIdParamsSchema, response: { 200: z.object({ sends: z.array(ZPhoneSendSchema) }) } }, onRequest }, async (req) => {
    const contact = await getVisibleContact(ctx, currentUser(req), req.params.id);
    return { sends: await service.phoneSendsOfNumber(ctx, contact.number) };
  });

  // ---------- the tool API ----------
  const toolTags = ['tool API'];
  const security = [{ bearer: [] }];
  const preValidation = sessionOrApiToken(ctx, 'phone');
  const config = { rateLimit: toolRateLimit };
  const toolSend = (kind: 'sms' | 'call', body: TPhoneApi) => ({ kind, from: body.from, numbers: body.to, text: body.text, language: body.language });
  const routes = [
    [
      '/sendSms',
      'sms',
      'An SMS to one number through Vonage. Example: `{"from":"5511999990000","to":"5511988887777","text":"Olá","token":"<userApiToken>"}`; `from` empty takes the default sender of the settings.',
    ],
    ['/makeVoiceCall', 'call', 'A call to one number that reads `text` (text-to-speech; `language` pt-BR, en-US or es-ES, default pt-BR).'],
  ] as const;
  for (const [path, kind, description] of routes) {
    app.post(
      path,
      { schema: { tags: toolTags, security, description, body: ZPhoneApiSchema, response: { 202: ZToolAcceptedSchema } }, preValidation, config: { ...config, audit: phoneAudit(kind) } },
      async (req, reply) => {
        if (req.body.to.includes('\n')) throw new AppError('ERR_VALIDATION', { message: 'One number in `to`.', fields: { to: 'INVALID' } });
        if (req.body.text.trim() === '') throw new AppError('ERR_VALIDATION', { fields: { text: 'REQUIRED' } });
        const { campaign } = await service.createPhoneCampaign(ctx, actorOf(req), toolSend(kind, req.body));
        return reply.code(202).send({ id: campaign.id, status: campaign.status });
      },
    );
  }

  // ---------- Vonage's webhooks (signed; no session) ----------
  await app.register(async (hooks) => {
    // The body is kept as received: call events are signed over its exact bytes.
    hooks.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    hooks.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    const hidden = { hide: true };

    /** Delivery receipts: GET with the query, or POST as JSON or a form, as the account is set. */
    hooks.get(SMS_WEBHOOK_PATH.replace('/api', ''), { schema: hidden }, async (req, reply) => {
      await receiveSmsReceipt(ctx, flatParams(req.query));
      return reply.code(204).send();
    });
    hooks.post(SMS_WEBHOOK_PATH.replace('/api', ''), { schema: hidden }, async (req, reply) => {
      await receiveSmsReceipt(ctx, parseWebhookBody(req.headers['content-type'], req.body));
      return reply.code(204).send();
    });

    hooks.post(CALL_WEBHOOK_PATH.replace('/api', ''), { schema: hidden }, async (req, reply) => {
      const rawBody = typeof req.body === 'string' ? req.body : '';
      await receiveCallEvent(ctx, { authorization: req.headers.authorization, contentType: req.headers['content-type'], rawBody });
      return reply.code(204).send();
    });
  });
};
