/**
 * Who calls a tool API route (and GET /campaigns/{id}): a signed-in session (bearer access
 * token) or the userApiToken setting, given as the body's `token` or as `Authorization: Bearer`,
 * compared in constant time. The token acts with admin rights and is no author. Neither: 401.
 * A route that names a permission refuses a caller without it (403 ERR_NO_PERMISSION), through
 * the one check of core/auth/permissions.ts.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { isAdminProfile } from '@zapdesk/shared/domain';
import type { Permission } from '@zapdesk/shared/permissions';
import type { AppContext } from '../../core/context.js';
import { ALL_PERMISSIONS, assertPermission } from '../../core/auth/permissions.js';
import { AppError } from '../../core/errors.js';
import { bearerToken, userFromAccessToken } from '../../core/http/auth-hooks.js';
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

/** Runs after the body is parsed and before it is validated: a caller without a right sees 401, not field errors. */
export function sessionOrApiToken(ctx: AppContext, permission?: Permission): preValidationAsyncHookHandler {
  return async (req: FastifyRequest) => {
    req.toolActor = await toolCaller(ctx, req);
    if (permission) assertPermission(req.toolActor, permission);
  };
}

async function toolCaller(ctx: AppContext, req: FastifyRequest): Promise<CampaignActor> {
  const bearer = bearerToken(req);
  const apiToken = await readSecretSetting(ctx, 'userApiToken');
  for (const candidate of [bodyToken(req), bearer]) {
    if (candidate && apiToken && sameSecret(candidate, apiToken)) return { userId: null, admin: true, source: 'api', permissions: ALL_PERMISSIONS };
  }
  if (!bearer) throw new AppError('ERR_API_TOKEN_INVALID');
  const user = await userFromAccessToken(ctx, bearer);
  req.authUser = user;
  return { userId: user.id, admin: isAdminProfile(user.profile), source: 'api', permissions: user.permissions };
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
