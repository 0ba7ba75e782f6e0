/** The audit log's store (registered for core's hook), the admins' list and CSV export, and the retention sweep. */
import { AUDIT_EXPORT_MAX_ROWS, AUDIT_PAGE_SIZE, isAuditAction, type TAuditFilter, type TAuditList, type TAuditListQuery } from '@zapdesk/shared/audit';
import { csvFile } from '@zapdesk/shared/csv';
import type { AuditLog } from '../../core/audit/audit-log.js';
import type { AppContext } from '../../core/context.js';
import type { Db } from '../../core/db/database.js';
import { pageWindow } from '../../core/db/sql-helpers.js';
import { localDayBounds } from '../../core/time.js';
import * as repo from './audit.repository.js';

export function createAuditLog(db: Db): AuditLog {
  return { record: (entry) => repo.insertAuditEvent(db, entry) };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day counts whole, in the server's time zone: from its start, to the next day's start. */
function instant(value: string | undefined, edge: 'start' | 'end'): string | undefined {
  if (!value) return undefined;
  if (DAY.test(value)) return localDayBounds(value)[edge].toISOString();
  return new Date(value).toISOString();
}

/** `users.update` is one action; `users` or `users.` every action on users. */
function actionFilter(value: string | undefined): repo.AuditQuery['action'] {
  if (!value) return undefined;
  if (isAuditAction(value)) return { exact: value };
  return { prefix: value.includes('.') ? value : `${value}.` };
}

function toQuery(f: TAuditFilter): repo.AuditQuery {
  return { from: instant(f.from, 'start'), to: instant(f.to, 'end'), userId: f.userId, action: actionFilter(f.action), outcome: f.outcome, search: f.searchParam || undefined };
}

export async function listAudit(ctx: AppContext, query: TAuditListQuery): Promise<TAuditList> {
  const page = pageWindow(query.pageNumber, AUDIT_PAGE_SIZE);
  const { events, count } = await repo.listAuditEvents(ctx.db, toQuery(query), page);
  return { events, count, hasMore: page.offset + events.length < count };
}

const CSV_HEADER = ['at', 'actor_kind', 'actor_user_id', 'actor', 'token', 'action', 'target_type', 'target_id', 'target_name', 'detail', 'ip', 'user_agent', 'outcome', 'status_code'];

/** The matching rows as zdg.csv, newest first (at most AUDIT_EXPORT_MAX_ROWS). */
export async function exportAuditCsv(ctx: AppContext, filter: TAuditFilter): Promise<string> {
  const rows: (string | number | null)[][] = [CSV_HEADER];
  for await (const batch of repo.allAuditEvents(ctx.db, toQuery(filter), AUDIT_EXPORT_MAX_ROWS)) {
    for (const e of batch) {
      const detail = Object.keys(e.detail).length ? JSON.stringify(e.detail) : '';
      rows.push([e.at, e.actorKind, e.actorUserId, e.actorName, e.tokenName, e.action, e.targetType, e.targetId, e.targetName, detail, e.ip, e.userAgent, e.outcome, e.statusCode]);
    }
  }
  return csvFile(rows);
}

/** Deletes the rows older than the retention period; answers how many went. */
export async function sweepAudit(ctx: AppContext, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - ctx.config.auditRetentionDays * 24 * 3600 * 1000).toISOString();
  return repo.deleteAuditEventsBefore(ctx.db, cutoff);
}
