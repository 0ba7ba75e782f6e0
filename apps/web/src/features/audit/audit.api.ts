import type { TAuditFilter, TAuditList } from '@zapdesk/shared/audit';
import { downloadFile, request } from '../../core/api/client';
import { csvWords, localizeCsv, type CsvColumn } from '../../core/ui/localizeCsv';
import { i18n } from '../../i18n/i18n';

export type AuditFilters = Partial<TAuditFilter>;

export const auditKeys = {
  list: (filters: AuditFilters) => ['audit', 'list', filters] as const,
};

function query(filters: AuditFilters): Record<string, string | number | undefined> {
  return { from: filters.from, to: filters.to, userId: filters.userId, action: filters.action, outcome: filters.outcome, searchParam: filters.searchParam };
}

export function fetchAudit(filters: AuditFilters, pageNumber: number): Promise<TAuditList> {
  return request<TAuditList>('/audit', { query: { ...query(filters), pageNumber } });
}

/** The export's columns in the reader's language (the server writes codes and UTC dates). */
function auditColumns(): Record<string, CsvColumn> {
  const title = (code: keyof typeof COLUMN_KEYS) => i18n.t(`exports.audit.${COLUMN_KEYS[code]}`);
  return {
    at: { title: title('at'), date: true },
    actor_kind: { title: title('actor_kind'), value: csvWords('exports.audit.actorKinds') },
    actor_user_id: { title: title('actor_user_id') },
    actor: { title: title('actor') },
    token: { title: title('token') },
    action: { title: title('action'), value: csvWords('audit.actions') },
    target_type: { title: title('target_type'), value: csvWords('audit.targets') },
    target_id: { title: title('target_id') },
    target_name: { title: title('target_name') },
    detail: { title: title('detail') },
    ip: { title: title('ip') },
    user_agent: { title: title('user_agent') },
    outcome: { title: title('outcome'), value: csvWords('audit.outcomes') },
    status_code: { title: title('status_code') },
  };
}

const COLUMN_KEYS = {
  at: 'at',
  actor_kind: 'actorKind',
  actor_user_id: 'actorUserId',
  actor: 'actor',
  token: 'token',
  action: 'action',
  target_type: 'targetType',
  target_id: 'targetId',
  target_name: 'targetName',
  detail: 'detail',
  ip: 'ip',
  user_agent: 'userAgent',
  outcome: 'outcome',
  status_code: 'statusCode',
} as const;

/** The rows of these filters as zdg.csv. */
export function downloadAuditCsv(filters: AuditFilters): Promise<void> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query(filters))) if (value !== undefined && value !== '') params.set(key, String(value));
  const search = params.toString();
  return downloadFile(`/audit/export${search ? `?${search}` : ''}`, 'zdg.csv', (text) => localizeCsv(text, auditColumns()));
}
