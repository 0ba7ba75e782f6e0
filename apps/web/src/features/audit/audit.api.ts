import type { TAuditFilter, TAuditList } from '@zapdesk/shared/audit';
import { downloadFile, request } from '../../core/api/client';

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

/** The rows of these filters as zdg.csv. */
export function downloadAuditCsv(filters: AuditFilters): Promise<void> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query(filters))) if (value !== undefined && value !== '') params.set(key, String(value));
  const search = params.toString();
  return downloadFile(`/audit/export${search ? `?${search}` : ''}`, 'zdg.csv');
}
