/**
 * The audit log's one writer. A route that must be audited says so in its declaration
 * (`config: { audit: 'users.update' }`, or a rule with a target and a small picker); this hook
 * writes the row in onSend, before the answer leaves, and waits for it: an action the caller
 * saw acknowledged is recorded. 2xx answers are 'ok', 401/403 'denied', other errors 'failed'
 * (429s are not recorded: the limits are there to absorb floods; nor malformed requests). Request bodies are never copied: a picker takes the
 * few facts worth keeping (a key, an id, a count), never a password, token or secret value.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditAction, AuditOutcome, AuditTargetType } from '@zapdesk/shared/audit';
import type { AuditActor, AuditDetail, AuditLog } from '../audit/audit-log.js';
import { nowIso } from '../time.js';

/** What a picker sees: the parsed request and the answer's JSON (undefined when it has none). */
export type AuditInput = { params: unknown; body: unknown; query: unknown; reply: unknown; statusCode: number; actor: AuditActor };

/** What a picker may set; what it leaves out keeps the rule's default. */
export type AuditPick = { action?: AuditAction; actor?: AuditActor; targetType?: AuditTargetType | null; targetId?: string | number | null; targetName?: string | null; detail?: AuditDetail };

export type AuditRule =
  | AuditAction
  | {
      action: AuditAction;
      /** What the route acts on; its id is the route's `id` parameter unless the picker says otherwise. */
      target?: AuditTargetType;
      /** Recorded only when an API token made the call (reads that a session makes all day). */
      onlyApiToken?: boolean;
      pick?: (input: AuditInput) => AuditPick;
    };

declare module 'fastify' {
  interface FastifyContextConfig {
    audit?: AuditRule;
  }
  interface FastifyRequest {
    /**
     * Who acted, when a credential other than a session made the call (an API token): set by
     * the code that checked that credential. Without it the actor is the signed-in user, if any.
     */
    auditActor?: AuditActor;
  }
}

/**
 * Not worth a row: an expired session's 403 is the normal refresh, not a refusal; a malformed
 * request (bad fields, broken JSON, an oversized body) never became an action.
 */
const SKIPPED_ERRORS = new Set(['ERR_SESSION_EXPIRED', 'ERR_VALIDATION']);
/** whaticket's integration API refuses a wrong token with 401 ERR_SESSION_EXPIRED: that refusal is recorded. */
const skipped = (error: string, statusCode: number) => SKIPPED_ERRORS.has(error) && !(error === 'ERR_SESSION_EXPIRED' && statusCode === 401);
const USER_AGENT_CHARS = 200;
const TEXT_CHARS = 200;
/** Larger answers (exports) are not read for facts. */
const READABLE_REPLY_CHARS = 64 * 1024;

export const ANONYMOUS: AuditActor = { kind: 'anonymous', userId: null, name: '', tokenName: null };

/** A field of a parsed body, answer or params object, or undefined. */
export function field(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
  const found: unknown = Reflect.get(value, key);
  return found;
}

/** A string field, cut to a length fit for the log, or undefined. */
export function textField(value: unknown, key: string): string | undefined {
  const found = field(value, key);
  return typeof found === 'string' ? found.slice(0, TEXT_CHARS) : undefined;
}

export function numberField(value: unknown, key: string): number | undefined {
  const found = field(value, key);
  return typeof found === 'number' && Number.isFinite(found) ? found : undefined;
}

/** A field of a field: `nested(reply, 'campaign', 'id')`. */
export function nested(value: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((inner, key) => field(inner, key), value);
}

/** The picker of a route whose answer is the thing it made or changed (`{ id, name }`). */
export function replyIdAndName({ reply }: AuditInput): AuditPick {
  return { targetId: numberField(reply, 'id') ?? null, targetName: textField(reply, 'name') ?? null };
}

/** Only the defined entries: a picker writes `{ count: numberField(...) }` without checks. */
export function compact(detail: Record<string, string | number | boolean | string[] | undefined>): AuditDetail {
  const out: AuditDetail = {};
  for (const [key, value] of Object.entries(detail)) if (value !== undefined) out[key] = value;
  return out;
}

function actorOf(request: FastifyRequest): AuditActor {
  if (request.auditActor) return request.auditActor;
  const user = request.authUser;
  return user ? { kind: 'user', userId: user.id, name: user.name, tokenName: null } : ANONYMOUS;
}

/** Control characters (a NUL in an address, say) never reach the log: PostgreSQL refuses a NUL in text, and a reader is not helped by them. */
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;

function storable(text: string, max = TEXT_CHARS): string {
  return text.replace(CONTROL_CHARS, '').slice(0, max);
}

function storableDetail(detail: AuditDetail): AuditDetail {
  const out: AuditDetail = {};
  for (const [key, value] of Object.entries(detail)) out[key] = typeof value === 'string' ? storable(value) : Array.isArray(value) ? value.map((v) => storable(v)) : value;
  return out;
}

function outcomeOf(status: number): AuditOutcome | undefined {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 401 || status === 403) return 'denied';
  if (status === 429 || status < 400) return undefined;
  return 'failed';
}

function readJson(payload: unknown): unknown {
  if (typeof payload !== 'string' || payload.length > READABLE_REPLY_CHARS) return undefined;
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}

/** Registers the hook on the root instance, before the routes: every route declared after it is covered. */
export function installAuditHook(app: FastifyInstance, log: () => AuditLog): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const rule = request.routeOptions.config.audit;
    if (!rule) return payload;
    const statusCode = reply.statusCode;
    const outcome = outcomeOf(statusCode);
    if (!outcome) return payload;
    const answer = readJson(payload);
    const error = outcome === 'ok' ? undefined : textField(answer, 'error');
    if (error !== undefined && skipped(error, statusCode)) return payload;
    const { action, target, onlyApiToken, pick } = typeof rule === 'string' ? { action: rule, target: undefined, onlyApiToken: false, pick: undefined } : rule;
    const actor = actorOf(request);
    if (onlyApiToken && actor.kind !== 'apiToken') return payload;
    const picked = pick?.({ params: request.params, body: request.body, query: request.query, reply: answer, statusCode, actor }) ?? {};
    const paramId = field(request.params, 'id');
    const targetId = picked.targetId !== undefined ? picked.targetId : target && (typeof paramId === 'number' || typeof paramId === 'string') ? paramId : null;
    const who = picked.actor ?? actor;
    await log().record({
      at: nowIso(),
      actor: { ...who, name: storable(who.name), tokenName: who.tokenName === null ? null : storable(who.tokenName) },
      action: picked.action ?? action,
      targetType: picked.targetType !== undefined ? picked.targetType : (target ?? null),
      targetId: targetId === null ? null : storable(String(targetId)),
      targetName: picked.targetName === undefined || picked.targetName === null ? null : storable(picked.targetName),
      detail: storableDetail({ ...(picked.detail ?? {}), ...(error ? { error } : {}) }),
      ip: request.ip,
      userAgent: storable(request.headers['user-agent'] ?? '', USER_AGENT_CHARS),
      outcome,
      statusCode,
    });
    return payload;
  });
}
