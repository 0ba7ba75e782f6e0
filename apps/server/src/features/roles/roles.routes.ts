/** Roles and their permissions: for admins only. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZRoleInputSchema, ZRoleListSchema, ZRoleSchema } from '@zapdesk/shared/roles';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { compact, field, replyIdAndName, textField, type AuditInput, type AuditPick } from '../../core/http/audit-hook.js';
import { requireAdmin } from '../../core/http/auth-hooks.js';
import * as service from './roles.service.js';

/** A role's name and what it now grants. */
function roleAudit(input: AuditInput): AuditPick {
  const granted = field(input.reply, 'permissions');
  const twoFactor = field(input.reply, 'twoFactorRequired');
  return {
    ...replyIdAndName(input),
    detail: compact({
      permissions: Array.isArray(granted) ? granted.filter((p): p is string => typeof p === 'string') : undefined,
      twoFactorRequired: typeof twoFactor === 'boolean' ? twoFactor : undefined,
      name: textField(input.body, 'name'),
    }),
  };
}

export const rolesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['roles'];
  const onRequest = requireAdmin(ctx);

  app.get('/roles', { schema: { tags, response: { 200: ZRoleListSchema } }, onRequest }, () => service.listRoles(ctx));
  app.post(
    '/roles',
    { schema: { tags, body: ZRoleInputSchema, response: { 201: ZRoleSchema } }, onRequest, config: { audit: { action: 'roles.create', target: 'role', pick: roleAudit } } },
    async (req, reply) => reply.code(201).send(await service.createRole(ctx, req.body)),
  );
  app.put(
    '/roles/:id',
    { schema: { tags, params: ZIdParamsSchema, body: ZRoleInputSchema, response: { 200: ZRoleSchema } }, onRequest, config: { audit: { action: 'roles.update', target: 'role', pick: roleAudit } } },
    (req) => service.updateRole(ctx, req.params.id, req.body),
  );
  app.delete('/roles/:id', { schema: { tags, params: ZIdParamsSchema, response: { 204: z.null() } }, onRequest, config: { audit: { action: 'roles.delete', target: 'role' } } }, async (req, reply) => {
    await service.deleteRole(ctx, req.params.id);
    return reply.code(204).send(null);
  });
};
