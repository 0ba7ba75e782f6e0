/** Audit rows: appended by the hook, read by the admins' page and export, removed only by the retention sweep. */
import { sql, type RawBuilder, type Selectable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS, AUDIT_OUTCOMES, AUDIT_TARGET_TYPES, type AuditOutcome, type TAuditEvent } from '@zapdesk/shared/audit';
import type { AuditEntry } from '../../core/audit/audit-log.js';
import type { Db } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { containsLike } from '../../core/db/sql-helpers.js';

/** The filters in the database's terms: instants as ISO strings, `to` excluded. */
export type AuditQuery = {
  from?: string | undefined;
  to?: string | undefined;
  userId?: number | undefined;
  action?: { exact: string } | { prefix: string } | undefined;
  outcome?: AuditOutcome | undefined;
  search?: string | undefined;
};

const columns = ['id', 'at', 'actorUserId', 'actorName', 'actorKind', 'tokenName', 'action', 'targetType', 'targetId', 'targetName', 'detail', 'ip', 'userAgent', 'outcome', 'statusCode'] as const;

type RawRow = Selectable<Database['auditEvents']>;

function parseDetail(raw: string): TAuditEvent['detail'] {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const detail: TAuditEvent['detail'] = {};
    for (const [key, value] of Object.entries(parsed)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') detail[key] = value;
      else if (Array.isArray(value)) detail[key] = value.map(String);
    }
    return detail;
  } catch {
    return {};
  }
}

function toEvent(r: RawRow): TAuditEvent | undefined {
  const action = AUDIT_ACTIONS.find((a) => a === r.action);
  // A row of an action a later version dropped is not shown rather than shown wrong.
  if (!action) return undefined;
  return {
    id: r.id,
    at: new Date(r.at).toISOString(),
    actorKind: AUDIT_ACTOR_KINDS.find((k) => k === r.actorKind) ?? 'anonymous',
    actorUserId: r.actorUserId,
    actorName: r.actorName,
    tokenName: r.tokenName,
    action,
    targetType: AUDIT_TARGET_TYPES.find((t) => t === r.targetType) ?? null,
    targetId: r.targetId,
    targetName: r.targetName,
    detail: parseDetail(r.detail),
    ip: r.ip,
    userAgent: r.userAgent,
    outcome: AUDIT_OUTCOMES.find((o) => o === r.outcome) ?? 'failed',
    statusCode: r.statusCode,
  };
}

export async function insertAuditEvent(db: Db, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('auditEvents')
    .values({
      at: entry.at,
      actorUserId: entry.actor.userId,
      actorName: entry.actor.name.slice(0, 200),
      actorKind: entry.actor.kind,
      tokenName: entry.actor.tokenName,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      targetName: entry.targetName,
      detail: JSON.stringify(entry.detail),
      ip: entry.ip.slice(0, 64),
      userAgent: entry.userAgent,
      outcome: entry.outcome,
      statusCode: entry.statusCode,
    })
    .execute();
}

function startsLike(column: 'action', prefix: string): RawBuilder<SqlBool> {
  const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<SqlBool>`${sql.ref(column)} like ${`${escaped}%`} escape '\\'`;
}

function filtered<O>(query: SelectQueryBuilder<Database, 'auditEvents', O>, f: AuditQuery): SelectQueryBuilder<Database, 'auditEvents', O> {
  let q = query;
  if (f.from) q = q.where('at', '>=', f.from);
  if (f.to) q = q.where('at', '<', f.to);
  if (f.userId !== undefined) q = q.where('actorUserId', '=', f.userId);
  if (f.action && 'exact' in f.action) q = q.where('action', '=', f.action.exact);
  else if (f.action) q = q.where(startsLike('action', f.action.prefix));
  if (f.outcome) q = q.where('outcome', '=', f.outcome);
  const search = f.search?.toLowerCase();
  if (search) {
    q = q.where((eb) =>
      eb.or([
        containsLike(sql`lower(${sql.ref('actorName')})`, search),
        containsLike(sql`lower(${sql.ref('targetName')})`, search),
        containsLike(sql`lower(${sql.ref('targetId')})`, search),
        containsLike(sql`lower(${sql.ref('ip')})`, search),
      ]),
    );
  }
  return q;
}

export async function listAuditEvents(db: Db, f: AuditQuery, page: { limit: number; offset: number }): Promise<{ events: TAuditEvent[]; count: number }> {
  const base = filtered(db.selectFrom('auditEvents'), f);
  const [rows, total] = await Promise.all([
    base.select(columns).orderBy('at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { events: rows.flatMap((r) => toEvent(r) ?? []), count: Number(total.count) };
}

/** The matching rows, newest first, a batch at a time (an export of a long period stays light). */
export async function* allAuditEvents(db: Db, f: AuditQuery, max: number): AsyncGenerator<TAuditEvent[]> {
  const batch = 1000;
  let lastId: number | undefined;
  for (let read = 0; read < max;) {
    let q = filtered(db.selectFrom('auditEvents'), f);
    // Ids grow with time: paging by id keeps a batch stable while rows are added.
    if (lastId !== undefined) q = q.where('id', '<', lastId);
    const rows = await q
      .select(columns)
      .orderBy('id', 'desc')
      .limit(Math.min(batch, max - read))
      .execute();
    if (rows.length === 0) return;
    read += rows.length;
    lastId = rows[rows.length - 1]?.id;
    yield rows.flatMap((r) => toEvent(r) ?? []);
    if (rows.length < batch) return;
  }
}

/** The retention sweep: rows older than `before` go; answers how many. */
export async function deleteAuditEventsBefore(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('auditEvents').where('at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
