/**
 * Where audit rows go. The audit feature registers the store at start (app.ts); core's hook only
 * knows this contract, as with core/auth/identity.ts.
 */
import type { AuditAction, AuditActorKind, AuditOutcome, AuditTargetType } from '@zapdesk/shared/audit';

/** Who acted. `name` is copied into the row, so it survives a renamed or deleted user. */
export type AuditActor = { kind: AuditActorKind; userId: number | null; name: string; tokenName: string | null };

export type AuditDetail = Record<string, string | number | boolean | string[]>;

export type AuditEntry = {
  at: string;
  actor: AuditActor;
  action: AuditAction;
  targetType: AuditTargetType | null;
  targetId: string | null;
  targetName: string | null;
  detail: AuditDetail;
  ip: string;
  userAgent: string;
  outcome: AuditOutcome;
  statusCode: number;
};

export interface AuditLog {
  /** Resolves once the row is stored: the answer leaves only after that. */
  record(entry: AuditEntry): Promise<void>;
}
