/** Named API tokens: admins list, make and revoke them. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZApiTokenCreatedSchema, ZApiTokenCreateSchema, ZApiTokenListSchema, ZApiTokenSchema } from '@zapdesk/shared/api-tokens';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
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
    },
    async (req, reply) => reply.code(201).send(await service.createApiToken(ctx, currentUser(req).id, req.body)),
  );

  app.delete(
    '/api-tokens/:id',
    { schema: { tags, description: 'Revokes the token at once; it stays in the list, marked revoked.', params: ZIdParamsSchema, response: { 200: ZApiTokenSchema } }, onRequest },
    (req) => service.revokeApiToken(ctx, req.params.id),
  );
};
