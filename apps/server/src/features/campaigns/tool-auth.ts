/**
 * Who calls a tool API route (and GET /campaigns/{id}): a signed-in session (bearer access
 * token) or the userApiToken setting, given as the body's `token` or as `Authorization: Bearer`,
 * compared in constant time. The token acts with admin rights and is no author. Neither: 401.
 * Wrong tokens are counted per client address: past API_TOKEN_FAILURES_PER_MINUTE the address is
 * refused with 429 for the rest of the minute, before its token is even looked at.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { isAdminProfile } from '@zapdesk/shared/domain';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { bearerToken, userFromAccessToken } from '../../core/http/auth-hooks.js';
import { FailureThrottle } from '../../core/http/failure-throttle.js';
import { readSecretSetting } from '../settings/settings.service.js';
import type { CampaignActor } from './campaigns.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    toolActor?: CampaignActor;
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function bodyToken(req: FastifyRequest): string | undefined {
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || !('token' in body)) return undefined;
  return typeof body.token === 'string' && body.token !== '' ? body.token : undefined;
}

/**
 * Wrong API tokens (or forged session tokens) one client address may present in a minute. Only
 * failures count, so the integration that holds the right token never uses them up. A throttled
 * address is refused even with the right token: answering it would let guessing go on at full
 * speed. Other addresses are not affected, and the block ends with the minute.
 */
export const API_TOKEN_FAILURES_PER_MINUTE = 20;

/** Failures that are guesses: an expired session (403) was a real one and is not counted. */
const GUESS_CODES = new Set(['ERR_API_TOKEN_INVALID', 'ERR_INVALID_TOKEN']);

/** Runs after the body is parsed and before it is validated: a caller without a right sees 401, not field errors. */
export function sessionOrApiToken(ctx: AppContext): preValidationAsyncHookHandler {
  const guesses = new FailureThrottle(ctx.failures, { name: 'api-token', max: API_TOKEN_FAILURES_PER_MINUTE, windowMs: 60_000 });
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const presented = bearerToken(req) !== undefined || bodyToken(req) !== undefined;
    if (presented) await guesses.refuseIfBlocked(req.ip, reply);
    try {
      await identifyToolCaller(ctx, req);
    } catch (error) {
      if (presented && error instanceof AppError && GUESS_CODES.has(error.code)) await guesses.fail(req.ip);
      throw error;
    }
  };
}

async function identifyToolCaller(ctx: AppContext, req: FastifyRequest): Promise<void> {
  const bearer = bearerToken(req);
  const apiToken = await readSecretSetting(ctx, 'userApiToken');
  for (const candidate of [bodyToken(req), bearer]) {
    if (candidate && apiToken && sameSecret(candidate, apiToken)) {
      req.toolActor = { userId: null, admin: true, source: 'api' };
      return;
    }
  }
  if (!bearer) throw new AppError('ERR_API_TOKEN_INVALID');
  const user = await userFromAccessToken(ctx, bearer);
  req.authUser = user;
  req.toolActor = { userId: user.id, admin: isAdminProfile(user.profile), source: 'api' };
}

/** Tool API calls per minute per token (or per signed-in user). */
export const TOOL_API_RATE_LIMIT = 120;

/** The tool API's rate limit, counted per token or per signed-in user (after the caller is known). */
export const toolRateLimit = {
  max: TOOL_API_RATE_LIMIT,
  timeWindow: '1 minute',
  hook: 'preHandler' as const,
  keyGenerator: (req: FastifyRequest) => (req.toolActor?.userId ? `tool-user:${req.toolActor.userId}` : 'tool-token'),
};

export function actorOf(req: FastifyRequest): CampaignActor {
  if (!req.toolActor) throw new AppError('ERR_API_TOKEN_INVALID');
  return req.toolActor;
}

export function adminActor(req: FastifyRequest): CampaignActor {
  const actor = actorOf(req);
  if (!actor.admin) throw new AppError('ERR_NO_PERMISSION');
  return actor;
}
