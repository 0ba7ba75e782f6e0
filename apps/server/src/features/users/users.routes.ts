import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParamsSchema, ZListQuerySchema, ZOnlineUsersSchema, ZUserCreateSchema, ZUserListSchema, ZUserSchema, ZUserUpdateSchema } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { compact, numberField, replyIdAndName, textField, type AuditInput, type AuditPick, nested } from '../../core/http/audit-hook.js';
import { authenticate, currentUser, requireAdmin } from '../../core/http/auth-hooks.js';
import { setRefreshCookie } from '../auth/auth.cookies.js';
import * as service from './users.service.js';

/** The account's name and profile as saved, and whether a password was set (never the password); one's own new password is a password change. */
function userAudit(input: AuditInput): AuditPick {
  const userId = numberField(input.params, 'id');
  const password = textField(input.body, 'password');
  const passwordSet = password !== undefined && password !== '';
  return {
    ...replyIdAndName(input),
    // An update names the user of the address, also when it was refused (no answer to read).
    ...(userId === undefined ? {} : { targetId: userId }),
    ...(passwordSet && userId !== undefined && userId === input.actor.userId ? { action: 'auth.password_change' as const } : {}),
    // The role the user holds after the change (the built-in role's users hold none of their own).
    detail: compact({ profile: textField(input.reply, 'profile'), role: textField(nested(input.reply, 'role'), 'name'), passwordSet: passwordSet || undefined }),
  };
}

export const usersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['users'];

  // whaticket's Users page and transfer dialog ask for '/users/': the same list by an explicit alias (hidden from the docs).
  for (const url of ['/users', '/users/']) {
    app.get(url, { schema: { tags, hide: url.endsWith('/'), querystring: ZListQuerySchema, response: { 200: ZUserListSchema } }, onRequest: authenticate(ctx) }, (req) =>
      service.listUsers(ctx, req.query),
    );
  }

  // Any signed-in user: the transfer dialog shows which agents are online.
  app.get('/users/online', { schema: { tags, response: { 200: ZOnlineUsersSchema } }, onRequest: authenticate(ctx) }, () => service.listOnlineUsers(ctx));

  app.get('/users/:id', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZUserSchema } }, onRequest: authenticate(ctx) }, (req) => service.getUser(ctx, currentUser(req), req.params.id));

  app.post(
    '/users',
    { schema: { tags, body: ZUserCreateSchema, response: { 201: ZUserSchema } }, onRequest: requireAdmin(ctx), config: { audit: { action: 'users.create', target: 'user', pick: userAudit } } },
    async (req, reply) => {
      const user = await service.createUser(ctx, req.body);
      return reply.code(201).send(user);
    },
  );

  app.put(
    '/users/:id',
    {
      schema: { tags, params: ZIdParamsSchema, body: ZUserUpdateSchema, response: { 200: ZUserSchema } },
      onRequest: authenticate(ctx),
      config: { audit: { action: 'users.update', target: 'user', pick: userAudit } },
    },
    async (req, reply) => {
      const actor = currentUser(req);
      const { user, ownPasswordChanged } = await service.updateUser(ctx, actor, req.params.id, req.body);
      // Changing one's own password ends earlier sessions; this browser keeps going with a new cookie.
      if (ownPasswordChanged) await setRefreshCookie(ctx, reply, user.id);
      return user;
    },
  );

  app.delete(
    '/users/:id',
    { schema: { tags, params: ZIdParamsSchema, response: { 204: z.null() } }, onRequest: requireAdmin(ctx), config: { audit: { action: 'users.delete', target: 'user' } } },
    async (req, reply) => {
      await service.deleteUser(ctx, currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
};
