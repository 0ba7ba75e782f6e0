/**
 * Amounts counted per key over a window that starts with the key's first count (bytes uploaded
 * by a user in a minute, and the like): in Redis in the cluster mode, so that every node adds to
 * the same count, else in this process.
 */
import type { Redis } from 'ioredis';

export type RateCount = { total: number; resetInMs: number };

export type RateCounter = {
  /** Adds `amount` (which may be negative, to give back) to the key's count in the window; the count after it. */
  add: (key: string, amount: number, windowMs: number) => Promise<RateCount>;
};

/** The counts of one process; keys whose window has passed are swept as new ones come. */
export function memoryRateCounter(): RateCounter {
  const counts = new Map<string, { total: number; resetAt: number }>();
  const sweep = (now: number) => {
    for (const [key, count] of counts) if (count.resetAt <= now) counts.delete(key);
  };
  return {
    add: async (key, amount, windowMs) => {
      const now = Date.now();
      if (counts.size > 10_000) sweep(now);
      const current = counts.get(key);
      const count = current && current.resetAt > now ? current : { total: 0, resetAt: now + windowMs };
      count.total += amount;
      counts.set(key, count);
      return { total: count.total, resetInMs: count.resetAt - now };
    },
  };
}

/** The counts in Redis: the key lives for the window from its first count (SET NX PX), then starts again. */
export function redisRateCounter(redis: Redis, prefix: string): RateCounter {
  return {
    add: async (key, amount, windowMs) => {
      const name = `${prefix}:count:${key}`;
      const results = await redis.multi().set(name, 0, 'PX', windowMs, 'NX').incrby(name, amount).pttl(name).exec();
      const total = Number(results?.[1]?.[1] ?? amount);
      const ttl = Number(results?.[2]?.[1] ?? windowMs);
      return { total, resetInMs: ttl > 0 ? ttl : windowMs };
    },
  };
}
