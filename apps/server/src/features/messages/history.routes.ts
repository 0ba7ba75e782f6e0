/**
 * The spec's history-import calls. `/zdgSyncMessageUser` needs a signed-in user (bearer token).
 * `/syncMessage` also takes the API token as the spec says (the body's `token` or
 * `Authorization: Bearer`): the userApiToken acts with admin rights (every chat of the
 * connection), a named token needs the 'history' permission; a session sees what its user may.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZHistoryImportResultSchema, ZSyncMessageSchema, ZSyncMessageUserSchema } from '@zapdesk/shared/messaging';
import type { SessionManager } from '../../channels/session-manager.js';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { compact, numberField, textField, type AuditInput, type AuditPick } from '../../core/http/audit-hook.js';
import { currentUser } from '../../core/http/auth-hooks.js';
import { sessionOrApiToken } from '../campaigns/tool-auth.js';
import { importConnectionHistory, importContactHistory } from './history-import.service.js';

/** Which chat (the contact's number, for one contact) or connection, and how many messages came in. */
function imported({ body, reply }: AuditInput): AuditPick {
  const number = textField(body, 'user');
  const whatsappId = numberField(body, 'ticketwhatsappId');
  return { targetId: number ? null : (whatsappId ?? null), targetName: number ?? null, detail: compact({ whatsappId, imported: numberField(reply, 'imported') }) };
}

export const historyRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; sessions: SessionManager }> = async (app, { ctx, sessions }) => {
  const tags = ['messages'];
  const onRequest = requirePermission(ctx, 'history');

  app.post(
    '/zdgSyncMessageUser',
    { schema: { tags, body: ZSyncMessageUserSchema, response: { 200: ZHistoryImportResultSchema } }, onRequest, config: { audit: { action: 'history.import', target: 'contact', pick: imported } } },
    (req) => importContactHistory(ctx, sessions, currentUser(req), { number: req.body.user, limit: req.body.limit, whatsappId: req.body.ticketwhatsappId }),
  );

  app.post(
    '/syncMessage',
    {
      schema: { tags, security: [{ bearer: [] }], body: ZSyncMessageSchema, response: { 200: ZHistoryImportResultSchema } },
      preValidation: sessionOrApiToken(ctx, 'history'),
      config: { audit: { action: 'history.import', target: 'whatsapp', pick: imported } },
    },
    // A token call has no user: it sees every chat of the connection (admin rights).
    (req) => importConnectionHistory(ctx, sessions, req.authUser ?? 'all', { limit: req.body.limit, whatsappId: req.body.ticketwhatsappId }),
  );
};
