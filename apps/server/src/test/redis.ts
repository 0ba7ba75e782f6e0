/** Redis for the cluster tests: TEST_REDIS_URL, or the local default. */
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether Redis answers. When it does not, a cluster test says so and skips, except on CI,
 * where this throws: there the tests must run.
 */
export async function redisForClusterTests(): Promise<boolean> {
  const probe = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let reachable = false;
  try {
    await probe.connect();
    reachable = (await probe.ping()) === 'PONG';
  } catch {
    reachable = false;
  } finally {
    probe.disconnect();
  }
  if (reachable) return true;
  if (process.env.CI) throw new Error(`Redis is not reachable at ${TEST_REDIS_URL}: the cluster tests need it (set TEST_REDIS_URL).`);
  console.warn(`Skipping the cluster tests: Redis is not reachable at ${TEST_REDIS_URL} (set TEST_REDIS_URL).`);
  return false;
}
