/**
 * Named API tokens: made, listed and revoked by admins; presented by integrations on the tool
 * API. A token is shown once, when made; the database keeps its SHA-256 only.
 */
import { createHash } from 'node:crypto';
import { API_TOKEN_PREFIX, API_TOKEN_SHOWN_CHARS, type TApiToken, type TApiTokenCreate, type TApiTokenCreated } from '@zapdesk/shared/api-tokens';
import { isPermission, PERMISSIONS, type Permission } from '@zapdesk/shared/permissions';
import type { AppContext } from '../../core/context.js';
import { memoUntilWrite } from '../../core/db/read-cache.js';
import { AppError } from '../../core/errors.js';
import { randomToken } from '../../core/secrets.js';
import { nowIso } from '../../core/time.js';
import * as repo from './api-tokens.repository.js';

/** A token's last use is written at most this often: a busy integration costs no write per call. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Who a valid named token is, and what it may do. */
export type ApiTokenIdentity = { id: number; name: string; permissions: ReadonlySet<Permission> };

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether a presented secret is meant as a named token (it has their prefix). */
export function isNamedApiToken(token: string): boolean {
  return token.startsWith(API_TOKEN_PREFIX);
}

/** The stored keys, in the list's order; a key this version does not know is dropped. */
function parsePermissions(text: string): Permission[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const keys = Array.isArray(value) ? value.filter((key): key is string => typeof key === 'string' && isPermission(key)) : [];
  return PERMISSIONS.filter((key) => keys.includes(key));
}

function present(row: repo.ApiTokenRow): TApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    permissions: parsePermissions(row.permissions),
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
    createdBy: row.createdBy !== null && row.creatorName !== null ? { id: row.createdBy, name: row.creatorName } : null,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
  };
}

export async function listApiTokens(ctx: AppContext): Promise<TApiToken[]> {
  return (await repo.listApiTokens(ctx.db)).map(present);
}

export async function createApiToken(ctx: AppContext, creatorId: number, input: TApiTokenCreate): Promise<TApiTokenCreated> {
  const now = nowIso();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt).toISOString() : null;
  if (expiresAt !== null && expiresAt <= now) throw new AppError('ERR_VALIDATION', { message: 'expiresAt: must be in the future.', fields: { expiresAt: 'INVALID' } });
  const permissions = PERMISSIONS.filter((key) => input.permissions.includes(key));
  const token = `${API_TOKEN_PREFIX}${randomToken(32)}`;
  const id = await repo.insertApiToken(
    ctx.db,
    { name: input.name, tokenHash: hashApiToken(token), prefix: token.slice(0, API_TOKEN_SHOWN_CHARS), permissions: JSON.stringify(permissions), expiresAt, createdBy: creatorId },
    now,
  );
  const row = await repo.findApiTokenById(ctx.db, id);
  if (!row) throw new AppError('ERR_NO_API_TOKEN_FOUND');
  return { token, apiToken: present(row) };
}

/** Revokes a token at once (its next call answers 401); the row stays for the record. */
export async function revokeApiToken(ctx: AppContext, id: number): Promise<TApiToken> {
  if (!(await repo.findApiTokenById(ctx.db, id))) throw new AppError('ERR_NO_API_TOKEN_FOUND');
  await repo.revokeApiToken(ctx.db, id, nowIso());
  const row = await repo.findApiTokenById(ctx.db, id);
  if (!row) throw new AppError('ERR_NO_API_TOKEN_FOUND');
  return present(row);
}

/**
 * The named token a caller presents, if it is valid now; undefined for an unknown, expired or
 * revoked one (the caller answers all three alike). The token is looked up by its hash, so no
 * stored secret is compared byte by byte. The read is kept until the next write to the
 * database: a revocation is a write, so it counts from the very next call.
 */
export async function resolveApiToken(ctx: AppContext, token: string): Promise<ApiTokenIdentity | undefined> {
  const hash = hashApiToken(token);
  const row = await memoUntilWrite(ctx.db, `apiTokens.byHash:${hash}`, () => repo.findApiTokenByHash(ctx.db, hash));
  const now = Date.now();
  if (!row || row.revokedAt !== null || (row.expiresAt !== null && Date.parse(row.expiresAt) <= now)) return undefined;
  if (row.lastUsedAt === null || Date.parse(row.lastUsedAt) <= now - LAST_USED_RESOLUTION_MS) {
    await repo.touchApiToken(ctx.db, row.id, new Date(now).toISOString(), new Date(now - LAST_USED_RESOLUTION_MS).toISOString());
  }
  return { id: row.id, name: row.name, permissions: new Set(parsePermissions(row.permissions)) };
}
