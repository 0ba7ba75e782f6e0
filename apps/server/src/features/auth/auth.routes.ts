import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZLoginResponseSchema, ZLoginSchema, ZSignupSchema, ZUserSchema } from '@zapdesk/shared/schemas';
import { ZLoginAnswerSchema } from '@zapdesk/shared/two-factor';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { refuseForSeconds } from '../../core/http/failure-throttle.js';
import { ANONYMOUS, compact, field, nested, numberField, replyIdAndName, textField, type AuditInput, type AuditPick } from '../../core/http/audit-hook.js';
import { authenticate, currentUser } from '../../core/http/auth-hooks.js';
import { clearRefreshCookie, REFRESH_COOKIE, writeRefreshCookie } from './auth.cookies.js';
import * as service from './auth.service.js';
import { DEVICE_COOKIE, deviceUserId, writeDeviceMarker } from './device-marker.js';
import { createLoginGuard } from './login-guard.js';

function accountOf(body: unknown): string {
  const email = typeof body === 'object' && body !== null && 'email' in body && typeof body.email === 'string' ? body.email : '';
  return email.trim().toLowerCase();
}

/** A sign-in is the user's; a failed one keeps the e-mail tried (never the password) and the address. */
function signInAudit({ body, reply, statusCode }: AuditInput): AuditPick {
  if (statusCode < 300 && field(reply, 'challenge') !== undefined) {
    // The password was right, and a code (or its set-up) is owed: not a sign-in yet.
    const email = accountOf(body);
    return { action: 'auth.login_code_owed', actor: { ...ANONYMOUS, name: email }, targetType: null, targetId: null, detail: compact({ email: email || undefined }) };
  }
  if (statusCode < 300) {
    const user = nested(reply, 'user');
    const id = numberField(user, 'id') ?? null;
    const name = textField(user, 'name') ?? '';
    return { actor: { kind: 'user', userId: id, name, tokenName: null }, targetId: id, targetName: name };
  }
  const email = accountOf(body);
  return { action: 'auth.login_failed', actor: { ...ANONYMOUS, name: email }, targetType: null, targetId: null, detail: compact({ email: email || undefined }) };
}

/** A new account acts as itself; a refused sign-up keeps the e-mail tried. */
function signUpAudit(input: AuditInput): AuditPick {
  if (input.statusCode >= 300) return { actor: { ...ANONYMOUS, name: accountOf(input.body) }, targetType: null, targetId: null };
  const { targetId, targetName } = replyIdAndName(input);
  return { actor: { kind: 'user', userId: typeof targetId === 'number' ? targetId : null, name: targetName ?? '', tokenName: null }, targetId, targetName };
}

export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['auth'];

  // Failed sign-ins are counted per account and address, per address and per account (see
  // login-guard.ts); the owner's known address and browser are never locked out by others.
  const guard = createLoginGuard(ctx);
  app.post(
    '/auth/login',
    { schema: { tags, body: ZLoginSchema, response: { 200: ZLoginAnswerSchema } }, config: { audit: { action: 'auth.login', target: 'user', pick: signInAudit } } },
    async (req, reply) => {
      const attempt = { account: req.body.email, address: req.ip, deviceUserId: deviceUserId(ctx, req.cookies[DEVICE_COOKIE]) };
      const wait = await guard.waitFor(attempt);
      if (wait > 0) refuseForSeconds(reply, wait);
      const answer = await service.login(ctx, guard, req.body, attempt);
      // A second factor is owed: a challenge, no cookie (see two-factor.routes.ts).
      if ('challenge' in answer) return answer;
      const { refreshToken, userId, ...session } = answer;
      writeRefreshCookie(reply, refreshToken);
      writeDeviceMarker(ctx, reply, userId);
      return session;
    },
  );

  app.post(
    '/auth/signup',
    {
      schema: { tags, body: ZSignupSchema, response: { 201: ZUserSchema } },
      config: { rateLimit: { max: ctx.config.loginRateLimit, timeWindow: '1 minute' }, audit: { action: 'auth.signup', target: 'user', pick: signUpAudit } },
    },
    async (req, reply) => reply.code(201).send(await service.signup(ctx, req.body)),
  );

  // Without a valid refresh cookie there is no session to restore: 401, as the spec says (whaticket's
  // frontend goes to its login page on a 401). Our web app does not ask when it knows nobody is
  // signed in (no access token stored), so a signed-out login page stays free of console errors.
  app.post('/auth/refresh_token', { schema: { tags, response: { 200: ZLoginResponseSchema } } }, async (req, reply) => {
    const cookie = req.cookies[REFRESH_COOKIE];
    if (!cookie) throw new AppError('ERR_INVALID_TOKEN');
    try {
      const { token, user, permissions, passwordChangeRequired, refreshToken } = await service.refresh(ctx, cookie);
      writeRefreshCookie(reply, refreshToken);
      return { token, user, permissions, passwordChangeRequired };
    } catch (error) {
      clearRefreshCookie(reply);
      throw error;
    }
  });

  app.delete('/auth/logout', { schema: { tags, response: { 204: z.null() } }, onRequest: authenticate(ctx), config: { audit: 'auth.logout' } }, async (req, reply) => {
    await service.logout(ctx, currentUser(req).id);
    clearRefreshCookie(reply);
    return reply.code(204).send(null);
  });
};
