/**
 * The real server as a child process, for the tests that kill it (crash recovery, the cluster's
 * take-over): started with node itself (the tsx command would put a wrapper process in between,
 * and killing the wrapper would leave the server running).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../../../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');
const BUILT_MAIN = path.join(ROOT, 'apps/server/dist/main.js');

/**
 * node's arguments that run the server: the build when the test command has just made it
 * (TEST_SERVER_BUILT=1, set by scripts/test.sh after `npm run build`), else the sources through
 * tsx's loader (a build left from an earlier checkout would run old code). The build starts in
 * about half the time: the loader compiles every module on the way in.
 */
export function serverArgs(): string[] {
  return process.env.TEST_SERVER_BUILT === '1' && fs.existsSync(BUILT_MAIN) ? [BUILT_MAIN] : ['--import', 'tsx', '--conditions=source', MAIN];
}

/** `output()`: everything it wrote to stdout and stderr so far; `stdout()`: stdout alone (the log's JSON lines). */
export type Server = { url: string; child: ChildProcess; exited: Promise<void>; output: () => string; stdout: () => string };

/**
 * Starts the server with `env` (on top of PATH, PORT=0 and HOST=127.0.0.1) and resolves with
 * its address once it listens. `cleanups` gets what kills it at the end of the test.
 */
export async function startServer(env: Record<string, string>, cleanups: (() => Promise<void>)[]): Promise<Server> {
  const child = spawn(process.execPath, serverArgs(), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let output = '';
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(() => reject(new Error(`server exited:\n${output}`)));
  });
  return { url, child, exited, output: () => output, stdout: () => stdout };
}

/** kill -9: no shutdown of any kind. */
export async function kill(server: Server): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
}

/** One JSON request to the server. */
export async function call<T = unknown>(server: Server, method: string, url: string, options: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Reads until `done` says so, or fails after `timeoutMs`. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
