import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZLoginResponseSchema, ZLoginSchema, ZSignupSchema, ZUserSchema } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { authenticate, currentUser } from '../../core/http/auth-hooks.js';
import { clearRefreshCookie, REFRESH_COOKIE, writeRefreshCookie } from './auth.cookies.js';
import * as service from './auth.service.js';

function accountOf(body: unknown): string {
  const email = typeof body === 'object' && body !== null && 'email' in body && typeof body.email === 'string' ? body.email : '';
  return email.trim().toLowerCase();
}

export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['auth'];

  // Attempts are counted per client address (behind a proxy, as TRUST_PROXY says) and per
  // account: many addresses cannot spray one account, one address cannot try many.
  const accountAttempts = app.createRateLimit({ max: ctx.config.loginRateLimit, timeWindow: '1 minute', keyGenerator: (req) => `login-account:${accountOf(req.body)}` });
  const perAccount = async (req: FastifyRequest, reply: FastifyReply) => {
    const counted = await accountAttempts(req);
    if (counted.isAllowed || !counted.isExceeded) return;
    reply.header('retry-after', counted.ttlInSeconds);
    throw new AppError('ERR_TOO_MANY_REQUESTS');
  };
  app.post(
    '/auth/login',
    {
      schema: { tags, body: ZLoginSchema, response: { 200: ZLoginResponseSchema } },
      config: { rateLimit: { max: ctx.config.loginRateLimit, timeWindow: '1 minute' } },
      preHandler: perAccount,
    },
    async (req, reply) => {
      const { token, user, permissions, refreshToken } = await service.login(ctx, req.body);
      writeRefreshCookie(reply, refreshToken);
      return { token, user, permissions };
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

  // Without a refresh cookie there is nothing to refresh: a signed-out browser asks at every start,
  // and gets 204 (no session) instead of an error in its console. A cookie that fails is still 401.
  app.post('/auth/refresh_token', { schema: { tags, response: { 200: ZLoginResponseSchema, 204: z.null() } } }, async (req, reply) => {
    if (!req.cookies[REFRESH_COOKIE]) return reply.code(204).send(null);
    try {
      const { token, user, permissions, refreshToken } = await service.refresh(ctx, req.cookies[REFRESH_COOKIE]);
      writeRefreshCookie(reply, refreshToken);
      return { token, user, permissions };
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
