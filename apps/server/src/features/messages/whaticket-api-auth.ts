/**
 * Who calls whaticket's integration API: `Authorization: Bearer <token>` with the userApiToken
 * setting or a named API token (which must hold the route's permission). A missing header, or a
 * token that is neither, answers as whaticket's isAuthApi does: 401 ERR_SESSION_EXPIRED. Wrong
 * tokens count against the client address in the same throttle as the tool API's (past
 * API_TOKEN_FAILURES_PER_MINUTE: 429 for the rest of the minute, even with the right token).
 * Sessions are not accepted here: whaticket's route takes the API token only.
 */
import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { Permission } from '@zapdesk/shared/permissions';
import { assertPermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { bearerToken } from '../../core/http/auth-hooks.js';
import { FailureThrottle } from '../../core/http/failure-throttle.js';
import { actAs, API_TOKEN_FAILURES_PER_MINUTE, apiTokenCaller } from '../campaigns/tool-auth.js';

const refused = () => new AppError('ERR_SESSION_EXPIRED', { status: 401, message: 'A valid API token is required: Authorization: Bearer <token>.' });

export function whaticketApiToken(ctx: AppContext, permission: Permission): preValidationAsyncHookHandler {
  // The same name as the tool API's throttle: one count of guesses per address for both.
  const guesses = new FailureThrottle(ctx.failures, { name: 'api-token', max: API_TOKEN_FAILURES_PER_MINUTE, windowMs: 60_000 });
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(req);
    if (token === undefined) throw refused();
    await guesses.refuseIfBlocked(req.ip, reply);
    const caller = await apiTokenCaller(ctx, token);
    if (!caller) {
      await guesses.fail(req.ip);
      throw refused();
    }
    actAs(req, caller);
    assertPermission(caller.actor, permission);
  };
}
