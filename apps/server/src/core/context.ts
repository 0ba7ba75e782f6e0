import type { Leases } from './cluster/leases.js';
import type { Config } from './config.js';
import type { Db, DbKind } from './db/database.js';
import type { DomainEventBus } from './events.js';
import type { FailureStore } from './http/failure-throttle.js';
import type { Presence } from './presence.js';
import type { RateCounter } from './rate-counter.js';
import type { Secrets } from './secrets.js';
import type { AuditLog } from './audit/audit-log.js';
import type { Identity } from './auth/identity.js';
import type { TokenService } from './auth/tokens.js';
import type { Metrics } from './metrics/metrics.js';
import type { Logger } from './logger.js';

/** What every feature receives: configuration, the database and the event bus. */
export type AppContext = {
  config: Config;
  /** The server's logger (core/logger.ts): a line carries the request, job round or remote call under way. */
  log: Logger;
  db: Db;
  dbKind: DbKind;
  events: DomainEventBus;
  tokens: TokenService;
  secrets: Secrets;
  /** Registered by the users and auth features (see core/auth/identity.ts). */
  identity: Identity;
  /** Registered by the audit feature: where the audit hook writes its rows. */
  audit: AuditLog;
  /** Which node runs what must run once (sessions, singleton jobs); on a single node, this one. */
  leases: Leases;
  /** Which users are online (a realtime socket open); answered by the realtime gateway. */
  presence: Presence;
  /** Failed credential checks (sign-ins, API tokens), counted in Redis in the cluster mode. */
  failures: FailureStore;
  /** Counts per key and window (upload budgets): in Redis in the cluster mode, so every node counts the same. */
  counters: RateCounter;
  /** This app's Prometheus metrics (one registry per app; see core/metrics/metrics.ts). */
  metrics: Metrics;
};
