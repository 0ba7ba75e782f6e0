/** Named API tokens: admins list, make and revoke them. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZApiTokenCreatedSchema, ZApiTokenCreateSchema, ZApiTokenListSchema, ZApiTokenSchema } from '@zapdesk/shared/api-tokens';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import { compact, field, nested, numberField, replyIdAndName, textField } from '../../core/http/audit-hook.js';
import type { AppContext } from '../../core/context.js';
import { currentUser, requireAdmin } from '../../core/http/auth-hooks.js';
import * as service from './api-tokens.service.js';

export const apiTokensRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['api tokens'];
  const onRequest = requireAdmin(ctx);

  app.get('/api-tokens', { schema: { tags, response: { 200: ZApiTokenListSchema } }, onRequest }, async () => ({ apiTokens: await service.listApiTokens(ctx) }));

  app.post(
    '/api-tokens',
    {
      schema: {
        tags,
        description: 'Makes a named token for the tool API with some permissions and an optional expiry. The answer holds the token itself: the only time it is shown.',
        body: ZApiTokenCreateSchema,
        response: { 201: ZApiTokenCreatedSchema },
      },
      onRequest,
      // The token itself is never recorded: its id, name and permissions only.
      config: {
        audit: {
          action: 'apiTokens.create',
          target: 'apiToken',
          pick: ({ reply }) => {
            const made = nested(reply, 'apiToken');
            const granted = field(made, 'permissions');
            return {
              targetId: numberField(made, 'id') ?? null,
              targetName: textField(made, 'name') ?? null,
              detail: compact({ permissions: Array.isArray(granted) ? granted.filter((p): p is string => typeof p === 'string') : undefined }),
            };
          },
        },
      },
    },
    async (req, reply) => reply.code(201).send(await service.createApiToken(ctx, currentUser(req).id, req.body)),
  );

  app.delete(
    '/api-tokens/:id',
    {
      schema: { tags, description: 'Revokes the token at once; it stays in the list, marked revoked.', params: ZIdParamsSchema, response: { 200: ZApiTokenSchema } },
      onRequest,
      config: { audit: { action: 'apiTokens.revoke', target: 'apiToken', pick: replyIdAndName } },
    },
    (req) => service.revokeApiToken(ctx, req.params.id),
  );
};
