/**
 * Starts the real server (its sources through tsx, or the build the test command just made: see
 * serverArgs) on a free port with a fresh data folder,
 * serving the built web app, and waits for GET /api/health.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverArgs } from '../../server/src/test/server-process';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The built web app under test; E2E_WEB_DIST points the browser tests at another build folder. */
export const WEB_DIST = process.env.E2E_WEB_DIST ? path.resolve(process.env.E2E_WEB_DIST) : path.join(REPO_ROOT, 'apps/web/dist');

export const ADMIN = { email: 'admin@e2e.test', password: 'admin-secret-1' } as const;

export type RunningServer = {
  baseUrl: string;
  /** The server's data folder: a test may seed its SQLite file (zapdesk.sqlite) directly. */
  dataDir: string;
  stop: () => Promise<void>;
  output: () => string;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer /api/health within ${timeoutMs} ms`);
}

export type ServerOptions = {
  /** Extra environment variables, e.g. a short ACCESS_TOKEN_TTL. */
  env?: Record<string, string>;
  /** Turns the simulated phone channel on (SIMULATOR=on) and its control API. */
  simulator?: boolean;
};

export async function startServer({ env = {}, simulator = false }: ServerOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'zapdesk-e2e-'));
  let log = '';
  const child = spawn(process.execPath, serverArgs(), {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      WEB_DIST,
      LOGIN_RATE_LIMIT: '1000',
      SIMULATOR: simulator ? 'on' : 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, 60_000);
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- server output ---\n${log}`);
  }
  return { baseUrl, dataDir, stop, output: () => log };
}
