/** What the audit log keeps of a send: the campaign it became and how many it goes to (never its text). */
import { compact, nested, numberField, textField, type AuditInput, type AuditPick } from '../../core/http/audit-hook.js';

/**
 * For answers `{ campaign, dropped }` (the pages), a campaign itself (group actions) and
 * `{ id, status }` (the tool API's sends: one recipient).
 */
export function sendAudit({ reply }: AuditInput): AuditPick {
  const campaign = nested(reply, 'campaign') ?? reply;
  const id = numberField(campaign, 'id');
  const recipients = numberField(campaign, 'total') ?? (id === undefined ? undefined : 1);
  return { targetId: id ?? null, detail: compact({ kind: textField(campaign, 'kind'), recipients }) };
}
