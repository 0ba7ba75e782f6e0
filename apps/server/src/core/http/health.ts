/**
 * Liveness and readiness, for a load balancer, systemd or an orchestrator (docs/operations.md).
 * /api/health/live: the process answers; nothing else is looked at. /api/health/ready: this node
 * may be sent traffic: the database answers a trivial query in time, Redis answers PING (the
 * cluster mode), every migration this version knows is applied, and the node is not stopping.
 * Both are public, not rate-limited and cheap; an answer names which check failed in one word,
 * never why (no addresses, no error text).
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZLivenessSchema, ZReadinessSchema, type TReadiness } from '@zapdesk/shared/schemas';
import type { DbHandle } from '../db/database.js';
import { pendingMigrations } from '../db/migrate.js';

/** How long one check may take before it counts as failed. */
export const READY_CHECK_TIMEOUT_MS = 2_000;

type Check = TReadiness['checks']['database'];
export type ReadinessDeps = {
  handle: DbHandle;
  /** The cluster mode's Redis: PING must answer. */
  pingRedis?: () => Promise<unknown>;
  /** Told once each time a check's result changes (not on every probe). */
  onChange?: (check: string, result: Check, error?: unknown) => void;
};

class Timeout extends Error {}

async function within(work: () => Promise<unknown>, ms: number): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), ms);
  });
  try {
    await Promise.race([work(), limit]);
    return 'ok';
  } finally {
    clearTimeout(timer);
  }
}

export class Readiness {
  #draining = false;
  /** Once every migration was seen applied it stays so: a running version never un-applies one. */
  #migrated = false;
  /** Probes that arrive together share one round of checks. */
  #round: Promise<TReadiness> | undefined;
  readonly #last = new Map<string, Check>();

  constructor(private readonly deps: ReadinessDeps) {}

  /** The node is stopping: from now on readiness answers 503, so a balancer sends no more. */
  drain(): void {
    this.#draining = true;
  }

  get draining(): boolean {
    return this.#draining;
  }

  check(): Promise<TReadiness> {
    this.#round ??= this.#checkAll().finally(() => {
      this.#round = undefined;
    });
    return this.#round;
  }

  async #run(name: string, work: () => Promise<Check>): Promise<Check> {
    let result: Check;
    let failure: unknown;
    try {
      result = await work();
    } catch (error) {
      failure = error;
      result = error instanceof Timeout ? 'timeout' : 'failed';
    }
    const previous = this.#last.get(name);
    this.#last.set(name, result);
    // A first 'ok' is no news.
    if (previous !== result && (previous !== undefined || result !== 'ok')) this.deps.onChange?.(name, result, failure);
    return result;
  }

  async #checkAll(): Promise<TReadiness> {
    const { handle, pingRedis } = this.deps;
    const [database, redis] = await Promise.all([
      this.#run('database', () => within(() => sql`select 1`.execute(handle.db), READY_CHECK_TIMEOUT_MS)),
      pingRedis ? this.#run('redis', () => within(pingRedis, READY_CHECK_TIMEOUT_MS)) : undefined,
    ]);
    // Asked only while the database answers, and only until all were seen applied.
    const migrations: Check =
      this.#migrated || database !== 'ok'
        ? this.#migrated
          ? 'ok'
          : 'failed'
        : await this.#run('migrations', async () => {
            const pending = await pendingMigrations(handle);
            if (pending.length === 0) this.#migrated = true;
            return pending.length === 0 ? 'ok' : 'pending';
          });
    const shutdown: Check = this.#draining ? 'draining' : 'ok';
    const checks = { database, migrations, ...(redis ? { redis } : {}), shutdown };
    const ready = Object.values(checks).every((c) => c === 'ok');
    return { status: ready ? 'ok' : 'unavailable', checks };
  }
}

/** The two routes, next to /api/health (which stays as it is). */
export function healthRoutes(app: FastifyInstance, readiness: Readiness): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/api/health/live', { schema: { tags: ['health'], response: { 200: ZLivenessSchema } } }, () => ({ status: 'ok' as const }));
  typed.get('/api/health/ready', { schema: { tags: ['health'], response: { 200: ZReadinessSchema, 503: ZReadinessSchema } } }, async (_request, reply) => {
    const result = await readiness.check();
    // A probe's answer is about now: never kept by a cache between the balancer and the node.
    reply.header('cache-control', 'no-store');
    return reply.code(result.status === 'ok' ? 200 : 503).send(result);
  });
}
