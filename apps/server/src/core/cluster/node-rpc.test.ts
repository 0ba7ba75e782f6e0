/**
 * Calls between nodes over a real Redis (TEST_REDIS_URL): values and error codes come back as on
 * one node, and a caller hears at once that the node it waits for is gone.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { redisForClusterTests, TEST_REDIS_URL } from '../../test/redis.js';
import { NodeRpc } from './node-rpc.js';

let ready = false;
const opened: { rpc: NodeRpc; clients: Redis[] }[] = [];
const prefix = `zapdesk-rpc-test-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  ready = await redisForClusterTests();
});

afterEach(() => {
  for (const { rpc, clients } of opened.splice(0)) {
    rpc.close();
    for (const client of clients) client.disconnect();
  }
});

/** `slowPublish`: the node's publish resolves 200 ms late, so answers come back before it does. */
async function node(name: string, options: { slowPublish?: boolean } = {}): Promise<{ rpc: NodeRpc; die: () => void }> {
  const pub = new Redis(TEST_REDIS_URL);
  const sub = new Redis(TEST_REDIS_URL);
  const publisher = options.slowPublish
    ? new Proxy(pub, {
        get: (target, property, receiver) =>
          property === 'publish'
            ? async (...args: Parameters<Redis['publish']>) => {
                const listeners = await target.publish(...args);
                await new Promise((resolve) => setTimeout(resolve, 200));
                return listeners;
              }
            : (Reflect.get(target, property, receiver) as unknown),
      })
    : pub;
  const rpc = new NodeRpc(publisher, sub, prefix, name);
  await rpc.start();
  opened.push({ rpc, clients: [pub, sub] });
  return { rpc, die: () => sub.disconnect() };
}

describe('calls between nodes', () => {
  it('bring back the value, with its bytes, dates and lazily read media, or the error with its code', async (context) => {
    if (!ready) return context.skip();
    const a = await node('rpc-a', { slowPublish: true });
    const b = await node('rpc-b');
    b.rpc.handle('echo', async (args) => args);
    b.rpc.handle('refuse', async () => {
      throw new AppError('ERR_GROUP_NOT_ADMIN');
    });
    const sent = { data: Buffer.from([0, 1, 2, 255]), at: new Date('2026-11-25T10:00:00Z'), media: { mimetype: 'image/png', load: async () => Buffer.from('png bytes') } };
    const back = (await a.rpc.call('rpc-b', 'echo', sent)) as { data: Buffer; at: Date; media: { mimetype: string; load: () => Promise<Buffer> } };
    expect(Buffer.isBuffer(back.data) && back.data.equals(sent.data)).toBe(true);
    expect(back.at).toEqual(sent.at);
    expect(back.media.mimetype).toBe('image/png');
    expect((await back.media.load()).toString()).toBe('png bytes');
    // An error answer that arrives before the request's publish has even resolved is still the caller's to handle.
    await expect(a.rpc.call('rpc-b', 'refuse', {})).rejects.toMatchObject({ code: 'ERR_GROUP_NOT_ADMIN' });
  });

  it('tell the caller at once when the node is gone, or dies after taking the call', async (context) => {
    if (!ready) return context.skip();
    const a = await node('rpc-c');
    const b = await node('rpc-d');
    await expect(a.rpc.call('rpc-nobody', 'echo', {})).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    let taken = false;
    b.rpc.handle('hang', () => {
      taken = true;
      // Dies while working: it never answers.
      b.die();
      return new Promise(() => undefined);
    });
    const started = Date.now();
    await expect(a.rpc.call('rpc-d', 'hang', {})).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
    expect(taken).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
