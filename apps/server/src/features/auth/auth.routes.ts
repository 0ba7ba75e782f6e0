import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZLoginResponseSchema, ZLoginSchema, ZSignupSchema, ZUserSchema } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { authenticate, currentUser } from '../../core/http/auth-hooks.js';
import { clearRefreshCookie, REFRESH_COOKIE, writeRefreshCookie } from './auth.cookies.js';
import * as service from './auth.service.js';

export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['auth'];

  app.post(
    '/auth/login',
    {
      schema: { tags, body: ZLoginSchema, response: { 200: ZLoginResponseSchema } },
      config: { rateLimit: { max: ctx.config.loginRateLimit, timeWindow: '1 minute' } },
    },
    async (req, reply) => {
      const { token, user, refreshToken } = await service.login(ctx, req.body);
      writeRefreshCookie(reply, refreshToken);
      return { token, user };
    },
  );

  app.post(
    '/auth/signup',
    {
      schema: { tags, body: ZSignupSchema, response: { 201: ZUserSchema } },
      config: { rateLimit: { max: ctx.config.loginRateLimit, timeWindow: '1 minute' } },
    },
    async (req, reply) => reply.code(201).send(await service.signup(ctx, req.body)),
  );

  app.post('/auth/refresh_token', { schema: { tags, response: { 200: ZLoginResponseSchema } } }, async (req, reply) => {
    try {
      const { token, user, refreshToken } = await service.refresh(ctx, req.cookies[REFRESH_COOKIE]);
      writeRefreshCookie(reply, refreshToken);
      return { token, user };
    } catch (error) {
      clearRefreshCookie(reply);
      throw error;
    }
  });

  app.delete('/auth/logout', { schema: { tags, response: { 204: z.null() } }, onRequest: authenticate(ctx) }, async (req, reply) => {
    await service.logout(ctx, currentUser(req).id);
    clearRefreshCookie(reply);
    return reply.code(204).send(null);
  });
};
