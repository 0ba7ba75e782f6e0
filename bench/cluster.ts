/**
 * `npm run cluster`: the cluster mode on one machine. Starts N nodes (3 by default) on one
 * PostgreSQL database and one Redis, on ports CLUSTER_PORT+1…CLUSTER_PORT+N, behind a small
 * round-robin load balancer on CLUSTER_PORT (http-proxy-3, HTTP and WebSocket) that skips a node
 * that does not answer its health check. No sticky sessions: the web app speaks socket.io over
 * WebSocket only, and every request may go to any node.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/zapdesk REDIS_URL=redis://127.0.0.1:6379 npm run cluster
 *
 * The secrets the nodes must share are generated once into data/cluster/secrets.json (owner
 * only) unless given in the environment; each node keeps its files in data/cluster/node-N and
 * the media in data/cluster/media (MEDIA_DIR, the volume they share).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createProxyServer } from 'http-proxy-3';
import { health, ROOT, startClusterNodes } from './cluster-nodes.js';

const env = process.env;
const databaseUrl = env.DATABASE_URL;
if (!databaseUrl?.startsWith('postgres')) {
  process.stderr.write('npm run cluster needs PostgreSQL: set DATABASE_URL=postgres://… (and REDIS_URL, redis://127.0.0.1:6379 by default).\n');
  process.exit(1);
}
const redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const count = Number(env.CLUSTER_NODES ?? 3);
const port = Number(env.CLUSTER_PORT ?? 8080);
const dir = path.resolve(env.CLUSTER_DIR ?? path.join(ROOT, 'data', 'cluster'));
fs.mkdirSync(dir, { recursive: true, mode: 0o700 });

/** What every node must share: the same secrets, made once and kept for the next runs. */
function sharedSecrets(): Record<string, string> {
  const file = path.join(dir, 'secrets.json');
  const given = { JWT_SECRET: env.JWT_SECRET, JWT_REFRESH_SECRET: env.JWT_REFRESH_SECRET, SECRETS_KEY: env.SECRETS_KEY };
  if (given.JWT_SECRET && given.JWT_REFRESH_SECRET && given.SECRETS_KEY) return given as Record<string, string>;
  if (!fs.existsSync(file)) {
    const made = { JWT_SECRET: randomBytes(32).toString('hex'), JWT_REFRESH_SECRET: randomBytes(32).toString('hex'), SECRETS_KEY: randomBytes(32).toString('hex') };
    fs.writeFileSync(file, JSON.stringify(made, null, 2), { mode: 0o600 });
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
}

const secrets = sharedSecrets();
const nodes = (
  await startClusterNodes({
    count,
    basePort: port,
    dir,
    env: {
      ...env,
      ...secrets,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${port}`,
      // The nodes' own addresses are behind the balancer: one hop to trust.
      TRUST_PROXY: env.TRUST_PROXY ?? '1',
    },
    output: (line) => process.stdout.write(`${line}\n`),
  })
).map((node) => ({ ...node, up: true }));
for (const node of nodes) node.child.on('exit', (code, signal) => process.stderr.write(`[${node.name}] stopped (${signal ?? code})\n`));

/** Health checks every 2 s: a node that does not answer gets no requests until it does. */
async function checkNodes(): Promise<void> {
  await Promise.all(nodes.map(async (node) => void (node.up = await health(node.url))));
}
await checkNodes();
setInterval(() => void checkNodes(), 2_000).unref();

let next = 0;
/** The next node that answers its health check, round robin. */
function pick(): string | undefined {
  for (let tries = 0; tries < nodes.length; tries += 1) {
    const node = nodes[next % nodes.length];
    next += 1;
    if (node?.up) return node.url;
  }
  return undefined;
}

const proxy = createProxyServer({ xfwd: true });
proxy.on('error', (_error, _req, res) => {
  if (res instanceof http.ServerResponse && !res.headersSent)
    res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'ERR_BAD_GATEWAY', message: 'No node answered.' }));
  else res.destroy();
});

const balancer = http.createServer((req, res) => {
  const target = pick();
  if (!target) return void res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'ERR_NO_NODE', message: 'No node is up.' }));
  proxy.web(req, res, { target });
});
balancer.on('upgrade', (req, socket, head) => {
  const target = pick();
  if (!target) return void socket.destroy();
  proxy.ws(req, socket, head, { target });
});
balancer.listen(port, '127.0.0.1', () => {
  process.stdout.write(`\n  ZapDesk cluster: ${count} nodes behind http://localhost:${port} (nodes on ports ${port + 1}–${port + count}, PostgreSQL and Redis shared)\n\n`);
});

const shutdown = () => {
  balancer.close();
  for (const node of nodes) node.child.kill('SIGTERM');
  setTimeout(() => process.exit(0), 10_000).unref();
  let left = nodes.length;
  for (const node of nodes) node.child.once('exit', () => (left -= 1) === 0 && process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
