import type { Config } from '../config.js';
import type { DbHandle } from '../db/database.js';
import { observeMemoWith } from '../db/read-cache.js';
import { Metrics } from './metrics.js';
import { metricsServed } from './metrics-http.js';

/**
 * An app's metrics, with what the core tells them: the database pool (SQLite: its one
 * connection) and the read memo's hits and misses. In the cluster mode each node labels its
 * series with its name (NODE_ID); Node's process metrics only where metrics are served.
 */
export function createAppMetrics(config: Config, handle: DbHandle, clustered: boolean): Metrics {
  const metrics = new Metrics({ node: clustered ? config.nodeId : undefined, processMetrics: metricsServed(config.metrics) });
  metrics.watchPool(handle.pool ?? (() => ({ total: 1, idle: 1, waiting: 0 })));
  observeMemoWith(handle.db, (hit) => metrics.readMemo.inc({ result: hit ? 'hit' : 'miss' }));
  return metrics;
}
