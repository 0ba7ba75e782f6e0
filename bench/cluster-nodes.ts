/**
 * Starts the nodes of a cluster as separate processes on one PostgreSQL database and one Redis
 * (used by `npm run cluster` and `npm run bench:cluster`): node-1 first (it migrates the
 * database), then the others once it answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

export type ClusterNode = { name: string; url: string; child: ChildProcess; exited: Promise<void> };

export type ClusterOptions = {
  count: number;
  /** Node i listens on basePort + i. */
  basePort: number;
  /** Each node's DATA_DIR is dir/node-i; the shared media are dir/media. */
  dir: string;
  /** Shared by every node: DATABASE_URL, REDIS_URL, the secrets, and anything else. */
  env: Record<string, string | undefined>;
  /** More arguments to node for every node (a profiler: `--cpu-prof --cpu-prof-dir=…`, a preload). */
  nodeArgs?: string[];
  /** Where each line a node prints goes (prefixed with its name); nothing when absent. */
  output?: (line: string) => void;
};

export async function health(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

async function untilHealthy(node: ClusterNode, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await health(node.url))) {
    if (node.child.exitCode !== null || Date.now() > end) throw new Error(`${node.name} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

export async function startClusterNodes(options: ClusterOptions): Promise<ClusterNode[]> {
  // The built server when asked for (CLUSTER_BUILT=1, after `npm run build`), else the sources:
  // a build left from an earlier checkout would run old code.
  const built = process.env.CLUSTER_BUILT === '1' && fs.existsSync(path.join(ROOT, 'apps/server/dist/main.js'));
  const nodes: ClusterNode[] = [];
  for (let i = 1; i <= options.count; i += 1) {
    const name = `node-${i}`;
    const nodeDir = path.join(options.dir, name);
    fs.mkdirSync(nodeDir, { recursive: true, mode: 0o700 });
    const args = [
      ...(built ? [] : ['--import', 'tsx', '--conditions=source']),
      ...(options.nodeArgs ?? []),
      built ? path.join(ROOT, 'apps/server/dist/main.js') : path.join(ROOT, 'apps/server/src/main.ts'),
    ];
    const port = options.basePort + i;
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...options.env, NODE_ID: name, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: nodeDir, MEDIA_DIR: path.join(options.dir, 'media') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = options.output;
    if (output) {
      const relay = (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n')) if (line) output(`[${name}] ${line}`);
      };
      child.stdout?.on('data', relay);
      child.stderr?.on('data', relay);
    } else {
      child.stdout?.resume();
      child.stderr?.resume();
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const node = { name, url: `http://127.0.0.1:${port}`, child, exited };
    nodes.push(node);
    // The first node migrates the database; the others start once it answers.
    if (i === 1) await untilHealthy(node, 120_000);
  }
  await Promise.all(nodes.map((node) => untilHealthy(node, 120_000)));
  return nodes;
}
