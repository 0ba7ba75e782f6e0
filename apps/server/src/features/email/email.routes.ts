/**
 * E-mail: the admins' list of mails with their state and error, a retry, the settings page's
 * test mail; and the spec's `/zdgSendEmail*` and `/zdgProtocolo` calls, which take a session or
 * the userApiToken (never open) and answer 202 with the stored mail's id.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZEmailListQuerySchema,
  ZEmailListSchema,
  ZEmailQueuedSchema,
  ZEmailSchema,
  ZEmailTestResultSchema,
  ZEmailTestSchema,
  ZProtocolEmailSchema,
  ZSendEmailAttachSchema,
  ZSendEmailAttachUserSchema,
  ZSendEmailSchema,
  ZSendEmailUserSchema,
} from '@zapdesk/shared/email';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { compact, numberField, type AuditInput } from '../../core/http/audit-hook.js';
import { requireAdmin } from '../../core/http/auth-hooks.js';
import { actorOf, sessionOrApiToken, toolRateLimit } from '../campaigns/tool-auth.js';
import { getVisibleTicket } from '../tickets/tickets.service.js';
import * as service from './email.service.js';

export const emailRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['e-mail'];
  const adminOnly = requireAdmin(ctx);

  app.get('/emails', { schema: { tags, querystring: ZEmailListQuerySchema, response: { 200: ZEmailListSchema } }, onRequest: adminOnly }, (req) => service.listEmails(ctx, req.query));

  app.post(
    '/emails/:id/retry',
    { schema: { tags, params: ZIdParamsSchema, response: { 200: ZEmailSchema } }, onRequest: adminOnly, config: { audit: { action: 'email.retry', target: 'email' } } },
    (req) => service.retryEmail(ctx, req.params.id),
  );

  app.post(
    '/emails/test',
    {
      schema: { tags, body: ZEmailTestSchema, response: { 200: ZEmailTestResultSchema } },
      onRequest: adminOnly,
      config: { audit: { action: 'email.send', pick: () => ({ detail: { test: true } }) } },
    },
    (req) => service.sendTestEmail(ctx, req.body.to),
  );

  // ---------- the tool API ----------
  const toolTags = ['tool API'];
  const security = [{ bearer: [] }];
  const preValidation = sessionOrApiToken(ctx, 'email');
  const config = { rateLimit: toolRateLimit };
  const accepted = { 202: ZEmailQueuedSchema };
  // The stored mail's id; never its text or address list.
  const mailAudit = { action: 'email.send', target: 'email', pick: ({ reply }: AuditInput) => ({ targetId: numberField(reply, 'id') ?? null }) } as const;
  const routes = [
    ['/zdgSendEmail', ZSendEmailSchema, 'A mail to the `emailTo` setting.'],
    ['/zdgSendEmailUser', ZSendEmailUserSchema, 'A mail to `zdgTo` (one address or several, separated by commas).'],
    ['/zdgSendEmailAttach', ZSendEmailAttachSchema, 'A mail to `emailTo` with a file: `zdgContent` is text, or base64 after `base64:` (or a `data:…;base64,` URL); up to 10 MB.'],
    ['/zdgSendEmailAttachUser', ZSendEmailAttachUserSchema, 'The same, to `zdgTo`.'],
  ] as const;
  for (const [path, body, description] of routes) {
    app.post(path, { schema: { tags: toolTags, security, description, body, response: accepted }, preValidation, config: { ...config, audit: mailAudit } }, async (req, reply) => {
      actorOf(req);
      return reply.code(202).send(await service.queueApiEmail(ctx, req.body));
    });
  }

  app.post(
    '/zdgProtocolo',
    {
      schema: {
        tags: toolTags,
        security,
        description: 'E-mails to `emailTo` the protocol number the server gave `ticket` when it was closed with Protocolo.',
        body: ZProtocolEmailSchema,
        response: accepted,
      },
      preValidation,
      config: { ...config, audit: { ...mailAudit, pick: (input) => ({ ...mailAudit.pick(input), detail: compact({ ticketId: numberField(input.body, 'ticket') }) }) } },
    },
    async (req, reply) => {
      actorOf(req);
      // A signed-in user mails only a ticket they may see; the token acts as an admin.
      if (req.authUser) await getVisibleTicket(ctx, req.authUser, req.body.ticket);
      return reply.code(202).send(await service.queueProtocolEmail(ctx, req.body.ticket, req.body.usuario || req.authUser?.name));
    },
  );
};
