/**
 * Node-to-node work logs under the id of the request that started it, over a real Redis
 * (TEST_REDIS_URL): a call to another node and a relayed domain event carry the id, and the
 * receiving node's lines (its own, and those of the handler it runs) carry it too.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collectLog } from '../../test/log-lines.js';
import { redisForClusterTests, TEST_REDIS_URL } from '../../test/redis.js';
import { waitFor } from '../../test/server-process.js';
import { DomainEventBus } from '../events.js';
import { withReqId } from '../log-context.js';
import { createLogger, type Logger } from '../logger.js';
import { relayClusterEvents } from './event-relay.js';
import { NodeRpc } from './node-rpc.js';

let ready = false;
const clients: Redis[] = [];
const rpcs: NodeRpc[] = [];
const prefix = `zapdesk-log-ids-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  ready = await redisForClusterTests();
});
afterEach(() => {
  for (const rpc of rpcs.splice(0)) rpc.close();
  for (const client of clients.splice(0)) client.disconnect();
});

async function node(name: string): Promise<{ rpc: NodeRpc; events: DomainEventBus; log: Logger; lines: ReturnType<typeof collectLog> }> {
  const lines = collectLog();
  const log = createLogger('debug', lines.destination).child({ node: name });
  const [pub, sub] = [new Redis(TEST_REDIS_URL), new Redis(TEST_REDIS_URL)];
  clients.push(pub, sub);
  const rpc = new NodeRpc(pub, sub, prefix, name, log);
  await rpc.start();
  rpcs.push(rpc);
  const events = new DomainEventBus();
  await relayClusterEvents(events, pub, sub, prefix, name, log);
  return { rpc, events, log, lines };
}

describe('the request id between nodes', () => {
  it('goes with a call: the called node and its handler log under it', async (context) => {
    if (!ready) return context.skip();
    const a = await node('ids-a');
    const b = await node('ids-b');
    b.rpc.handle('send', async (args) => {
      b.log.info({ args }, 'sending for another node');
      return 'ok';
    });
    expect(await withReqId('cluster-call-0001', () => a.rpc.call('ids-b', 'send', { to: '5511' }))).toBe('ok');
    const lines = b.lines.lines().filter((line) => line.reqId === 'cluster-call-0001');
    expect(lines.map((line) => line.msg)).toEqual(['call from another node', 'sending for another node']);
    // A call made outside any request still gets an id the called node's lines share.
    await a.rpc.call('ids-b', 'send', {});
    const last = b.lines.lines().filter((line) => line.msg === 'sending for another node')[1];
    expect(last?.reqId).toMatch(/^rpc:[0-9a-f-]{36}$/);
  });

  it('goes with a relayed event: the other node’s handler logs under it', async (context) => {
    if (!ready) return context.skip();
    const a = await node('ids-c');
    const b = await node('ids-d');
    b.events.subscribeCluster('email.queued', ({ count }) => b.log.info({ count }, 'mail queued elsewhere'));
    withReqId('cluster-event-0001', () => a.events.publish('email.queued', { count: 2 }));
    const heard = await waitFor(
      async () => b.lines.lines().find((line) => line.msg === 'mail queued elsewhere'),
      (line) => line !== undefined,
    );
    expect(heard).toMatchObject({ reqId: 'cluster-event-0001', count: 2, node: 'ids-d' });
  });
});
