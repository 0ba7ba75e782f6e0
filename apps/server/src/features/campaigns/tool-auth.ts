/**
 * Who calls a tool API route (and GET /campaigns/{id}): a signed-in session (bearer access
 * token), the userApiToken setting, or a named API token, given as the body's `token` or as
 * `Authorization: Bearer`. The userApiToken is compared in constant time and acts with admin
 * rights (every permission); a named token is found by its hash and acts with its own
 * permissions only. Neither is an author. A wrong, expired or revoked token: 401, all alike.
 * Wrong tokens are counted per client address: past API_TOKEN_FAILURES_PER_MINUTE the address is
 * refused with 429 for the rest of the minute, before its token is even looked at.
 * A route that names a permission refuses a caller without it (403 ERR_NO_PERMISSION), through
 * the one check of core/auth/permissions.ts.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { isGroupActionKind, isPhoneKind, type TCampaign } from '@zapdesk/shared/campaigns';
import { isAdminProfile } from '@zapdesk/shared/domain';
import type { Permission } from '@zapdesk/shared/permissions';
import type { AppContext } from '../../core/context.js';
import type { AuditActor } from '../../core/audit/audit-log.js';
import { ALL_PERMISSIONS, assertPermission } from '../../core/auth/permissions.js';
import { AppError } from '../../core/errors.js';
import { bearerToken, userFromAccessToken } from '../../core/http/auth-hooks.js';
import { FailureThrottle } from '../../core/http/failure-throttle.js';
import { isNamedApiToken, resolveApiToken } from '../api-tokens/api-tokens.service.js';
import { readSecretSetting } from '../settings/settings.service.js';
import type { CampaignActor } from './campaigns.service.js';

/** A tool API caller: what it may do, and the named token it came with (null for a session or the userApiToken). */
export type ToolActor = CampaignActor & { token: { id: number; name: string } | null };

declare module 'fastify' {
  interface FastifyRequest {
    toolActor?: ToolActor;
  }
}

/** How the audit log names a call made with the userApiToken setting. */
export const API_TOKEN_ACTOR: AuditActor = { kind: 'apiToken', userId: null, name: 'userApiToken', tokenName: 'userApiToken' };

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
export function sessionOrApiToken(ctx: AppContext, permission?: Permission): preValidationAsyncHookHandler {
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
    if (permission) assertPermission(actorOf(req), permission);
  };
}

async function identifyToolCaller(ctx: AppContext, req: FastifyRequest): Promise<void> {
  const bearer = bearerToken(req);
  const candidates = [bodyToken(req), bearer];
  const apiToken = await readSecretSetting(ctx, 'userApiToken');
  for (const candidate of candidates) {
    if (candidate && apiToken && sameSecret(candidate, apiToken)) return actAs(req, USER_API_TOKEN_CALLER);
  }
  // A named token that is presented decides: a wrong, expired or revoked one is refused, even beside a session.
  for (const candidate of candidates) {
    if (!candidate || !isNamedApiToken(candidate)) continue;
    const named = await resolveApiToken(ctx, candidate);
    if (!named) throw new AppError('ERR_API_TOKEN_INVALID');
    return actAs(req, namedTokenCaller(named));
  }
  if (!bearer) throw new AppError('ERR_API_TOKEN_INVALID');
  const user = await userFromAccessToken(ctx, bearer);
  req.authUser = user;
  const admin = isAdminProfile(user.profile);
  // A session: an admin holds every permission, a plain user the built-in agent role's.
  req.toolActor = { userId: user.id, admin, source: 'api', permissions: user.permissions, token: null };
}

/**
 * The caller a bare API token names: the userApiToken setting (admin rights) or a live named
 * token (its own permissions); undefined for anything else. Sessions are not looked at.
 */
export async function apiTokenCaller(ctx: AppContext, token: string): Promise<TokenCaller | undefined> {
  const apiToken = await readSecretSetting(ctx, 'userApiToken');
  if (apiToken && sameSecret(token, apiToken)) return USER_API_TOKEN_CALLER;
  const named = isNamedApiToken(token) ? await resolveApiToken(ctx, token) : undefined;
  return named ? namedTokenCaller(named) : undefined;
}

/** Who a token acts as, and how the audit log names it. */
export type TokenCaller = { actor: ToolActor; audit: AuditActor };

/** The userApiToken setting: admin rights, every permission. */
const USER_API_TOKEN_CALLER: TokenCaller = { actor: { userId: null, admin: true, source: 'api', permissions: ALL_PERMISSIONS, token: null }, audit: API_TOKEN_ACTOR };

/** A named token sees what an admin sees, within its permissions (each route checks its own). */
function namedTokenCaller(named: { id: number; name: string; permissions: ToolActor['permissions'] }): TokenCaller {
  return {
    actor: { userId: null, admin: true, source: 'api', permissions: named.permissions, token: { id: named.id, name: named.name } },
    audit: { kind: 'apiToken', userId: null, name: named.name, tokenName: named.name },
  };
}

export function actAs(req: FastifyRequest, caller: TokenCaller): void {
  req.toolActor = caller.actor;
  req.auditActor = caller.audit;
}

/** The permission a send of this kind needs: what a named token must hold to read it. */
export function campaignPermission(campaign: Pick<TCampaign, 'kind' | 'audience' | 'channel'>): Permission {
  if (isPhoneKind(campaign.kind)) return 'phone';
  if (isGroupActionKind(campaign.kind) || campaign.audience !== 'numbers') return 'groups';
  if (campaign.channel === 'instagram') return 'instagram';
  return 'campaigns';
}

/** Tool API calls per minute per token (or per signed-in user). */
export const TOOL_API_RATE_LIMIT = 120;

/** The tool API's rate limit, counted per token or per signed-in user (after the caller is known). */
export const toolRateLimit = {
  max: TOOL_API_RATE_LIMIT,
  timeWindow: '1 minute',
  hook: 'preHandler' as const,
  keyGenerator: (req: FastifyRequest) => {
    const actor = req.toolActor;
    if (actor?.token) return `tool-token:${actor.token.id}`;
    return actor?.userId ? `tool-user:${actor.userId}` : 'tool-token';
  },
};

export function actorOf(req: FastifyRequest): ToolActor {
  if (!req.toolActor) throw new AppError('ERR_API_TOKEN_INVALID');
  return req.toolActor;
}

export function adminActor(req: FastifyRequest): ToolActor {
  const actor = actorOf(req);
  if (!actor.admin) throw new AppError('ERR_NO_PERMISSION');
  return actor;
}
