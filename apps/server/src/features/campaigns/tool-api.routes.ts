/**
 * The spec's tool API (section 7 'Extra backend calls'). Each call takes a signed-in session
 * (bearer access token) or the userApiToken setting (the body's `token`, or `Authorization:
 * Bearer <token>`), compared in constant time; without either it answers 401. A send is a
 * one-recipient campaign: stored, paced, in the history, answered 202 with its id.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZDeletedCountSchema,
  ZSendScheduledResultSchema,
  ZSendScheduledSchema,
  ZTokenBodySchema,
  ZToolAcceptedSchema,
  ZToolConnectionsSchema,
  ZToolContactsSchema,
  ZToolMediaSchema,
  ZToolTextSchema,
  ZToolVoiceSchema,
  type TCampaignCreate,
} from '@zapdesk/shared/campaigns';
import type { AppContext } from '../../core/context.js';
import * as service from './campaigns.service.js';
import { compact, field, numberField } from '../../core/http/audit-hook.js';
import { sendAudit } from './campaign-audit.js';
import { actorOf, adminActor, sessionOrApiToken, toolRateLimit } from './tool-auth.js';
import * as tools from './tool-api.service.js';

/** The pace of a send through the API, in seconds: it shares its connection's pace like any campaign. */
export const TOOL_API_PACE = { minDelay: 1, maxDelay: 3 } as const;

const countOf = (value: unknown) => (Array.isArray(value) ? value.length : undefined);

const isUrl = (text: string) => /^https?:\/\//i.test(text);

export const toolApiRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['tool API'];
  const preValidation = sessionOrApiToken(ctx, 'campaigns');
  const rateLimit = toolRateLimit;
  const security = [{ bearer: [] }];
  const send = async (req: FastifyRequest, input: Omit<TCampaignCreate, 'minDelay' | 'maxDelay'>) => {
    const { campaign } = await service.createCampaign(ctx, actorOf(req), { ...input, ...TOOL_API_PACE });
    return { id: campaign.id, status: campaign.status };
  };
  const accepted = { 202: ZToolAcceptedSchema };
  const sendAudited = { action: 'campaigns.create', target: 'campaign', pick: sendAudit } as const;

  app.post(
    '/zdg',
    {
      schema: {
        tags,
        security,
        description: 'A text to one number. Example: `{"number":"5511999990000","message":"Olá {{name}}","ticketwhatsappId":1,"token":"<userApiToken>"}`',
        body: ZToolTextSchema,
        response: accepted,
      },
      preValidation,
      config: { rateLimit, audit: sendAudited },
    },
    async (req, reply) => reply.code(202).send(await send(req, { kind: 'text', whatsappId: req.body.ticketwhatsappId, numbers: req.body.number, message: req.body.message })),
  );

  app.post(
    '/sendMedia',
    {
      schema: { tags, security, description: 'A file by URL (fetched once by the server; private addresses refused). `title` is the caption.', body: ZToolMediaSchema, response: accepted },
      preValidation,
      config: { rateLimit, audit: sendAudited },
    },
    async (req, reply) => reply.code(202).send(await send(req, { kind: 'mediaUrl', whatsappId: req.body.ticketwhatsappId, numbers: req.body.number, message: req.body.title, mediaUrl: req.body.url })),
  );

  app.post(
    '/sendMediaZDG',
    {
      schema: { tags, security, description: 'A file by its path inside LOCAL_MEDIA_DIR (`url` is the path). `title` is the caption.', body: ZToolMediaSchema, response: accepted },
      preValidation,
      config: { rateLimit, audit: sendAudited },
    },
    async (req, reply) =>
      reply.code(202).send(await send(req, { kind: 'mediaPath', whatsappId: req.body.ticketwhatsappId, numbers: req.body.number, message: req.body.title, mediaPath: req.body.url })),
  );

  app.post(
    '/sendMediaZDGRec',
    {
      schema: { tags, security, description: 'A voice note (Ogg Opus only), by URL or by a path inside LOCAL_MEDIA_DIR.', body: ZToolVoiceSchema, response: accepted },
      preValidation,
      config: { rateLimit, audit: sendAudited },
    },
    async (req, reply) => {
      const where = isUrl(req.body.url) ? { mediaUrl: req.body.url } : { mediaPath: req.body.url };
      return reply.code(202).send(await send(req, { kind: 'voice', whatsappId: req.body.ticketwhatsappId, numbers: req.body.number, message: '', ...where }));
    },
  );

  app.get(
    '/whatsappzdg',
    {
      schema: { tags, security, description: 'The connected connections and their ids.', response: { 200: ZToolConnectionsSchema } },
      preValidation,
      config: { rateLimit, audit: { action: 'apiToken.use', onlyApiToken: true } },
    },
    () => tools.connectedConnections(ctx),
  );

  app.post(
    '/sendAgendamento',
    {
      schema: {
        tags,
        security,
        description: 'Starts now every campaign scheduled for `dataEnvio` (YYYY-MM-DD, server time zone) on the connection.',
        body: ZSendScheduledSchema,
        response: { 200: ZSendScheduledResultSchema },
      },
      preValidation,
      config: { rateLimit, audit: { action: 'campaigns.start_scheduled', pick: ({ reply }) => ({ detail: compact({ started: countOf(field(reply, 'started')) }) }) } },
    },
    async (req) => ({ started: await service.startScheduledOfDay(ctx, actorOf(req), req.body.ticketwhatsappId, req.body.dataEnvio) }),
  );

  app.get(
    '/contactsZDG',
    {
      schema: { tags, security, description: 'Every contact: id, name, number (admin or token; a named token needs contactsImportExport).', response: { 200: ZToolContactsSchema } },
      preValidation: sessionOrApiToken(ctx, 'contactsImportExport'),
      config: { rateLimit, audit: 'contacts.export' },
    },
    (req) => {
      adminActor(req);
      return tools.contactsBrief(ctx);
    },
  );

  app.post(
    '/delContacts',
    {
      schema: {
        tags,
        security,
        description:
          'Deletes the contacts that have no ticket and no message, and answers how many (a caller with the contactsDelete permission: admins, the token). Contacts with a conversation are kept.',
        body: ZTokenBodySchema,
        response: { 200: ZDeletedCountSchema },
      },
      preValidation: sessionOrApiToken(ctx, 'contactsDelete'),
      config: { rateLimit, audit: { action: 'contacts.delete_unused', pick: ({ reply }) => ({ detail: compact({ deleted: numberField(reply, 'deleted') }) }) } },
    },
    () => tools.deleteUnusedContacts(ctx),
  );
};
