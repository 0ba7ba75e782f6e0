/**
 * What the cluster benchmark reads of the processes it measures: CPU time of each node, of the
 * database's backends, of Redis and of itself (from /proc), and the nodes' counts
 * (bench/cluster-count.ts), each per message over the measure's window.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import type { ClusterNode } from './cluster-nodes.js';

/** The p-th percentile of ascending values, to a tenth. */
export function percentile(sorted: number[], p: number): number {
  return Number((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN).toFixed(1));
}

export type CpuSnapshot = Record<string, number>;
export type Counts = Record<string, Record<string, number>>;

/** CPU milliseconds (user + system) of a process so far, from /proc. */
function processCpuMs(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

export async function cpuSnapshot(databaseUrl: string, nodes: ClusterNode[]): Promise<CpuSnapshot> {
  const backends = await queryAll<{ pid: number }>(databaseUrl, 'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
  const redisPid = await redisServerPid();
  const usage = process.cpuUsage();
  return {
    ...Object.fromEntries(nodes.map((node) => [node.name, processCpuMs(node.child.pid)])),
    postgres: backends.reduce((sum, b) => sum + processCpuMs(b.pid), 0),
    redis: processCpuMs(redisPid),
    client: (usage.user + usage.system) / 1000,
  };
}

let redisPidFound: number | undefined;
/** The Redis server's process id (INFO server), to read its CPU time. */
async function redisServerPid(): Promise<number | undefined> {
  if (redisPidFound !== undefined) return redisPidFound;
  const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const info = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(url.port || 6379), url.hostname);
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
      if (text.includes('process_id:')) socket.end();
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.write('INFO server\r\n');
  });
  redisPidFound = Number(/process_id:(\d+)/.exec(info)?.[1]);
  return redisPidFound;
}

export function perMessage(from: CpuSnapshot, to: CpuSnapshot | undefined, messages: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(to ?? {})) out[key] = Number(((value - (from[key] ?? 0)) / messages).toFixed(3));
  return out;
}

export async function readCounts(dir: string, nodes: ClusterNode[]): Promise<Counts | undefined> {
  if (!fs.existsSync(dir)) return undefined;
  // Each node writes its counts now (bench/cluster-count.ts).
  for (const node of nodes) if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGUSR2');
  await new Promise((resolve) => setTimeout(resolve, 100));
  return Object.fromEntries(
    nodes.map((node) => {
      try {
        return [node.name, (JSON.parse(fs.readFileSync(path.join(dir, `${node.name}.json`), 'utf8')) as { counts: Record<string, number> }).counts];
      } catch {
        return [node.name, {}];
      }
    }),
  );
}

export function perMessageCounts(from: Counts | undefined, to: Counts, messages: number): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const [node, counts] of Object.entries(to)) {
    out[node] = {};
    for (const [key, value] of Object.entries(counts)) {
      const delta = value - (from?.[node]?.[key] ?? 0);
      if (delta > 0) out[node][key] = Number((delta / messages).toFixed(2));
    }
  }
  return out;
}

export async function queryAll<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

export async function queryOne<T>(url: string, text: string): Promise<T | undefined> {
  return (await queryAll<T>(url, text))[0];
}
