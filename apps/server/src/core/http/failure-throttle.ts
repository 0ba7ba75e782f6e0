/**
 * Counts failed credential checks (wrong passwords, wrong API tokens) per key for a window, and
 * refuses a key that failed too often with 429 ERR_TOO_MANY_REQUESTS and Retry-After. Only
 * failures are counted: a caller with the right credential never uses up an allowance, so a busy
 * integration or a crowded office behind one address is never throttled by its own successes.
 * In the cluster mode the counts live in Redis, so every node sees the same failures.
 */
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../errors.js';

/** A key's failures in its current window, and how long until the window ends. */
export type FailureCount = { count: number; resetInMs: number };

/** Where failures are counted: this process's memory on one node, Redis in the cluster mode. */
export type FailureStore = {
  read(key: string): Promise<FailureCount>;
  /** Adds one failure; the window starts at a key's first failure. */
  add(key: string, windowMs: number): Promise<FailureCount>;
  clear(key: string): Promise<void>;
};

/** Keys kept in memory at most: past it, ended windows are swept, then the oldest keys go. */
const MEMORY_KEYS_MAX = 100_000;

export function memoryFailureStore(now: () => number = Date.now): FailureStore {
  const entries = new Map<string, { count: number; resetAt: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.resetAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const sweep = () => {
    if (entries.size < MEMORY_KEYS_MAX) return;
    for (const key of [...entries.keys()]) live(key);
    for (const key of entries.keys()) {
      if (entries.size < MEMORY_KEYS_MAX) break;
      entries.delete(key);
    }
  };
  return {
    async read(key) {
      const entry = live(key);
      return entry ? { count: entry.count, resetInMs: entry.resetAt - now() } : { count: 0, resetInMs: 0 };
    },
    async add(key, windowMs) {
      const entry = live(key) ?? { count: 0, resetAt: now() + windowMs };
      entry.count += 1;
      if (!entries.has(key)) sweep();
      entries.set(key, entry);
      return { count: entry.count, resetInMs: entry.resetAt - now() };
    },
    async clear(key) {
      entries.delete(key);
    },
  };
}

export function redisFailureStore(redis: Redis, prefix: string): FailureStore {
  const full = (key: string) => `${prefix}:failures:${key}`;
  return {
    async read(key) {
      const [count, ttl] = await Promise.all([redis.get(full(key)), redis.pttl(full(key))]);
      return { count: Number(count ?? 0), resetInMs: Math.max(ttl, 0) };
    },
    async add(key, windowMs) {
      // The window starts at the first failure (SET NX with its expiry): later failures do not stretch it.
      const results = await redis.multi().set(full(key), 0, 'PX', windowMs, 'NX').incr(full(key)).pttl(full(key)).exec();
      const count = Number(results?.[1]?.[1] ?? 0);
      const ttl = Number(results?.[2]?.[1] ?? windowMs);
      return { count, resetInMs: Math.max(ttl, 0) };
    },
    async clear(key) {
      await redis.del(full(key));
    },
  };
}

/** One kind of failure (login per address, API token per address…) with its limit and window. */
export class FailureThrottle {
  constructor(
    private readonly store: FailureStore,
    private readonly options: { name: string; max: number; windowMs: number },
  ) {}

  private key(key: string): string {
    return `${this.options.name}:${key}`;
  }

  /** Seconds until the key may try again, or 0 when it has failures left. */
  async blockedFor(key: string): Promise<number> {
    const { count, resetInMs } = await this.store.read(this.key(key));
    return count >= this.options.max ? Math.max(1, Math.ceil(resetInMs / 1000)) : 0;
  }

  /** Refuses a key that failed too often: 429 ERR_TOO_MANY_REQUESTS with Retry-After. */
  async refuseIfBlocked(key: string, reply: FastifyReply): Promise<void> {
    const seconds = await this.blockedFor(key);
    if (seconds > 0) refuseForSeconds(reply, seconds);
  }

  async fail(key: string): Promise<FailureCount> {
    return this.store.add(this.key(key), this.options.windowMs);
  }

  async count(key: string): Promise<number> {
    return (await this.store.read(this.key(key))).count;
  }

  async reset(key: string): Promise<void> {
    await this.store.clear(this.key(key));
  }
}

export function refuseForSeconds(reply: FastifyReply, seconds: number): never {
  reply.header('retry-after', seconds);
  throw new AppError('ERR_TOO_MANY_REQUESTS');
}
