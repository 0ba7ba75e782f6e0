/**
 * The counts behind the upload budget: in one process, and in a real Redis (TEST_REDIS_URL)
 * where two nodes add to the same count; a window starts with a key's first count and ends.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisForClusterTests, TEST_REDIS_URL } from '../test/redis.js';
import { waitFor } from '../test/harness.js';
import { memoryRateCounter, redisRateCounter, type RateCounter } from './rate-counter.js';

let ready = false;
const clients: Redis[] = [];
const prefix = `zapdesk-counter-test-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  ready = await redisForClusterTests();
});
afterAll(() => {
  for (const client of clients) client.disconnect();
});

async function countsTogether(a: RateCounter, b: RateCounter): Promise<void> {
  const key = `user:${randomBytes(4).toString('hex')}`;
  expect((await a.add(key, 300, 60_000)).total).toBe(300);
  expect((await b.add(key, 200, 60_000)).total).toBe(500);
  const given = await a.add(key, -200, 60_000);
  expect(given.total).toBe(300);
  expect(given.resetInMs).toBeGreaterThan(50_000);
  expect(given.resetInMs).toBeLessThanOrEqual(60_000);
  // Another key counts apart; a short window ends and starts again.
  expect((await b.add(`${key}:other`, 7, 60_000)).total).toBe(7);
  await a.add(`${key}:short`, 5, 300);
  await waitFor(
    () => b.add(`${key}:short`, 0, 300),
    (count) => count.total === 0,
    5_000,
  );
}

describe('rate counters', () => {
  it('count in one process', async () => {
    const counter = memoryRateCounter();
    await countsTogether(counter, counter);
  });

  it('count in Redis, the same count on two nodes', async (context) => {
    if (!ready) return context.skip();
    const one = new Redis(TEST_REDIS_URL);
    const two = new Redis(TEST_REDIS_URL);
    clients.push(one, two);
    await countsTogether(redisRateCounter(one, prefix), redisRateCounter(two, prefix));
  });
});
