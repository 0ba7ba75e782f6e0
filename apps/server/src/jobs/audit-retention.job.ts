/**
 * The audit log's retention: rows older than AUDIT_RETENTION_DAYS are deleted at start and then
 * daily. The sweep is one idempotent DELETE, so every node runs it without coordination.
 */
import type { AppContext } from '../core/context.js';
import { jobRound } from '../core/log-context.js';
import { sweepAudit } from '../features/audit/audit.service.js';

export const AUDIT_SWEEP_INTERVAL_MS = 24 * 3600 * 1000;

export function scheduleAuditRetention(ctx: AppContext, onError: (error: unknown) => void): () => void {
  const run = () => void jobRound('audit-retention', () => sweepAudit(ctx).catch(onError));
  run();
  const timer = setInterval(run, AUDIT_SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
