/**
 * Two-factor sign-in's routes. /auth/login/2fa* finish a sign-in with the challenge that the
 * password earned (no session yet); /auth/2fa* are the signed-in user's own set-up; an admin
 * turns off someone else's with DELETE /users/{id}/2fa.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParamsSchema, ZLoginResponseSchema } from '@zapdesk/shared/schemas';
import {
  ZLoginEnableSchema,
  ZLoginSecondFactorSchema,
  ZLoginSetupSchema,
  ZLoginWithRecoveryCodesSchema,
  ZRecoveryCodesSchema,
  ZTwoFactorCodeBodySchema,
  ZTwoFactorDisableSchema,
  ZTwoFactorSetupSchema,
  ZTwoFactorStatusSchema,
} from '@zapdesk/shared/two-factor';
import type { AppContext } from '../../core/context.js';
import { ANONYMOUS, nested, numberField, textField, type AuditInput, type AuditPick, type AuditRule } from '../../core/http/audit-hook.js';
import { authenticate, bearerToken, currentUser, requireAdmin } from '../../core/http/auth-hooks.js';
import { writeRefreshCookie } from './auth.cookies.js';
import * as login from './two-factor-login.service.js';
import * as service from './two-factor.service.js';

/** A sign-in finished with a code: the user's, as the password's step; a wrong code is a failed sign-in. */
function secondFactorPick({ reply, statusCode }: AuditInput): AuditPick {
  if (statusCode >= 300) return { action: 'auth.login_failed', actor: ANONYMOUS, targetType: null, targetId: null };
  const id = numberField(nested(reply, 'user'), 'id') ?? null;
  const name = textField(nested(reply, 'user'), 'name') ?? '';
  return { actor: { kind: 'user', userId: id, name, tokenName: null }, targetId: id, targetName: name };
}
const secondFactorSignIn: AuditRule = { action: 'auth.login', target: 'user', pick: secondFactorPick };

export const twoFactorRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['auth'];
  // As many tries per minute and address as the password gets; each challenge takes few anyway.
  const limited = { rateLimit: { max: ctx.config.loginRateLimit, timeWindow: '1 minute' } };

  /** The sign-in (refresh family) of the request's access token: the one that carries on. */
  async function currentFamily(req: FastifyRequest): Promise<string | undefined> {
    const token = bearerToken(req);
    const verified = token ? await ctx.tokens.verifyAccess(token) : undefined;
    return verified?.ok ? verified.claims.family : undefined;
  }

  app.post('/auth/login/2fa', { schema: { tags, body: ZLoginSecondFactorSchema, response: { 200: ZLoginResponseSchema } }, config: { ...limited, audit: secondFactorSignIn } }, async (req, reply) => {
    const { refreshToken, userId: _userId, ...session } = await login.loginWithSecondFactor(ctx, req.body);
    writeRefreshCookie(reply, refreshToken);
    return session;
  });

  app.post('/auth/login/2fa/setup', { schema: { tags, body: ZLoginSetupSchema, response: { 200: ZTwoFactorSetupSchema } }, config: limited }, (req) => login.setupWithChallenge(ctx, req.body));

  app.post(
    '/auth/login/2fa/enable',
    { schema: { tags, body: ZLoginEnableSchema, response: { 200: ZLoginWithRecoveryCodesSchema } }, config: { ...limited, audit: secondFactorSignIn } },
    async (req, reply) => {
      const { refreshToken, ...answer } = await login.enableWithChallenge(ctx, req.body);
      writeRefreshCookie(reply, refreshToken);
      return answer;
    },
  );

  app.get('/auth/2fa', { schema: { tags, response: { 200: ZTwoFactorStatusSchema } }, onRequest: authenticate(ctx) }, (req) => service.twoFactorStatus(ctx, currentUser(req).id));

  app.post('/auth/2fa/setup', { schema: { tags, response: { 200: ZTwoFactorSetupSchema } }, onRequest: authenticate(ctx) }, (req) => service.beginSetup(ctx, currentUser(req).id));

  app.post(
    '/auth/2fa/enable',
    { schema: { tags, body: ZTwoFactorCodeBodySchema, response: { 200: ZRecoveryCodesSchema } }, onRequest: authenticate(ctx), config: { ...limited, audit: 'auth.totp_enable' } },
    async (req) => ({
      recoveryCodes: await service.enableForSession(ctx, currentUser(req).id, await currentFamily(req), req.body.code),
    }),
  );

  app.post(
    '/auth/2fa/disable',
    { schema: { tags, body: ZTwoFactorDisableSchema, response: { 204: z.null() } }, onRequest: authenticate(ctx), config: { ...limited, audit: 'auth.totp_disable' } },
    async (req, reply) => {
      await service.disableTwoFactor(ctx, currentUser(req).id, await currentFamily(req), req.body);
      return reply.code(204).send(null);
    },
  );

  app.post('/auth/2fa/recovery-codes', { schema: { tags, body: ZTwoFactorCodeBodySchema, response: { 200: ZRecoveryCodesSchema } }, onRequest: authenticate(ctx), config: limited }, async (req) => ({
    recoveryCodes: await service.regenerateRecoveryCodes(ctx, currentUser(req).id, req.body.code),
  }));

  app.delete(
    '/users/:id/2fa',
    { schema: { tags: ['users'], params: ZIdParamsSchema, response: { 204: z.null() } }, onRequest: requireAdmin(ctx), config: { audit: { action: 'auth.totp_disable', target: 'user' } } },
    async (req, reply) => {
      await service.resetTwoFactor(ctx, currentUser(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );
};
