/**
 * The failure counters on one node (memory) and in the cluster mode (a real Redis shared by two
 * clients, as two nodes share it): a window starts at the first failure, the limit blocks, a
 * reset clears, and a failure counted on one node blocks on the other.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { redisForClusterTests, TEST_REDIS_URL } from '../../test/redis.js';
import { FailureThrottle, memoryFailureStore, redisFailureStore } from './failure-throttle.js';

describe('failure throttle in memory', () => {
  it('blocks a key at its limit until the window ends, leaves other keys alone, and forgets on reset', async () => {
    let now = 1_000_000;
    const throttle = new FailureThrottle(
      memoryFailureStore(() => now),
      { name: 'test', max: 3, windowMs: 60_000 },
    );
    for (let i = 0; i < 3; i += 1) {
      expect(await throttle.blockedFor('a')).toBe(0);
      await throttle.fail('a');
    }
    expect(await throttle.blockedFor('a')).toBe(60);
    expect(await throttle.blockedFor('b')).toBe(0);
    now += 30_000;
    // Later failures do not stretch the window.
    await throttle.fail('a');
    expect(await throttle.blockedFor('a')).toBe(30);
    now += 30_000;
    expect(await throttle.blockedFor('a')).toBe(0);
    await throttle.fail('b');
    await throttle.reset('b');
    expect(await throttle.count('b')).toBe(0);
  });
});

describe('failure throttle in Redis (the cluster mode)', () => {
  const clients: Redis[] = [];
  afterAll(() => {
    for (const client of clients) client.disconnect();
  });

  it('counts the failures of every node together, with one window', async (context) => {
    if (!(await redisForClusterTests())) return context.skip();
    const prefix = `zapdesk-test-${randomBytes(4).toString('hex')}`;
    const [one, two] = [new Redis(TEST_REDIS_URL), new Redis(TEST_REDIS_URL)];
    clients.push(one, two);
    const options = { name: 'test', max: 4, windowMs: 60_000 };
    const nodeA = new FailureThrottle(redisFailureStore(one, prefix), options);
    const nodeB = new FailureThrottle(redisFailureStore(two, prefix), options);
    await nodeA.fail('203.0.113.9');
    await nodeB.fail('203.0.113.9');
    await nodeA.fail('203.0.113.9');
    expect(await nodeB.blockedFor('203.0.113.9')).toBe(0);
    await nodeB.fail('203.0.113.9');
    const seconds = await nodeA.blockedFor('203.0.113.9');
    expect(seconds).toBeGreaterThan(55);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(await nodeA.count('203.0.113.9')).toBe(4);
    expect(await nodeB.blockedFor('203.0.113.10')).toBe(0);
    await nodeB.reset('203.0.113.9');
    expect(await nodeA.blockedFor('203.0.113.9')).toBe(0);
    await one.del(`${prefix}:failures:test:203.0.113.9`);
  });
});
