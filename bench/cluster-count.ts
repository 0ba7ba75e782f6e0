/**
 * What a node does per message, counted (`npm run bench:cluster -- --count`): loaded into each
 * node with `--import` after tsx, it wraps a few library calls on their prototypes and writes
 * the counts to CLUSTER_COUNT_DIR/<NODE_ID>.json every 500 ms. Measurement only: the server's
 * code is not touched, and without the flag nothing is loaded.
 *
 * - pg: queries sent to PostgreSQL (each a round trip);
 * - ioredis: publishes, by channel (socket.io's adapter, the calls between nodes, the events);
 * - socket.io: broadcasts, their JSON encodings, the sockets each reached (packets written).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(path.join(process.cwd(), 'apps/server/package.json'));
const counts: Record<string, number> = {};
const add = (key: string, n = 1) => void (counts[key] = (counts[key] ?? 0) + n);

type Proto = Record<string, (...args: unknown[]) => unknown>;
function wrap(proto: Proto, name: string, count: (self: unknown, args: unknown[]) => void): void {
  const original = proto[name];
  if (typeof original !== 'function') throw new Error(`cluster-count: no ${name} to wrap`);
  proto[name] = function (this: unknown, ...args: unknown[]) {
    count(this, args);
    return original.apply(this, args);
  };
}

const pg = require('pg') as { Client: { prototype: Proto } };
// With CLUSTER_COUNT_SQL=1, also by statement (its first 90 characters): which queries a message costs.
const bySql = process.env.CLUSTER_COUNT_SQL === '1';
wrap(pg.Client.prototype, 'query', (_self, args) => {
  add('pg.query');
  if (!bySql) return;
  const first = args[0];
  const text = typeof first === 'string' ? first : typeof first === 'object' && first !== null && 'text' in first ? String(first.text) : '?';
  add(`sql ${text.replace(/\s+/g, ' ').slice(0, 90)}`);
});

const Redis = require('ioredis') as { prototype: Proto };
wrap(Redis.prototype, 'publish', (_self, args) => {
  const channel = String(args[0]);
  add(
    channel.includes('socket.io')
      ? channel.includes('-request#') || channel.includes('-response#')
        ? 'redis.publish.adapterRequest'
        : 'redis.publish.broadcast'
      : channel.includes(':node:')
        ? 'redis.publish.rpc'
        : 'redis.publish.other',
  );
});

const adapter = require('socket.io-adapter') as { Adapter: { prototype: Proto } };
wrap(adapter.Adapter.prototype, 'broadcast', (self) => add(`io.broadcast${(self as { nsp: { name: string } }).nsp.name}`));
wrap(adapter.Adapter.prototype, '_encode', () => add('io.encode'));
const engine = require('engine.io') as { Socket: { prototype: Proto } };
wrap(engine.Socket.prototype, 'sendPacket', (_self, args) => add(`engine.packet.${String(args[0])}`));

const dir = process.env.CLUSTER_COUNT_DIR ?? '';
const file = path.join(dir, `${process.env.NODE_ID ?? process.pid}.json`);
const write = () => fs.writeFileSync(file, JSON.stringify({ at: Date.now(), counts }));
setInterval(write, 500).unref();
process.on('exit', write);
// The benchmark asks for the counts at the edges of its measure.
process.on('SIGUSR2', write);
