/**
 * deploy/zapdesk.service and deploy/zapdesk.env.example: the unit runs the built server as its
 * own user with the environment file, stops it with SIGTERM and waits longer than the server's
 * own time limit, and is hardened; systemd-analyze verify accepts it where the tool exists. The
 * example environment loads as a valid configuration, names only documented variables and holds
 * no secret.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './core/config.js';
import { ROOT } from './test/server-process.js';

const UNIT = path.join(ROOT, 'deploy/zapdesk.service');
const ENV_EXAMPLE = path.join(ROOT, 'deploy/zapdesk.env.example');

/** The unit's settings, each key with every value it is given (comments left out). */
function settings(file: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match?.[1]) found.set(match[1], [...(found.get(match[1]) ?? []), match[2] ?? '']);
  }
  return found;
}

function envLines(file: string): { active: Record<string, string>; named: string[] } {
  const active: Record<string, string> = {};
  const named: string[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const match = /^(#\s*)?([A-Z][A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (!match?.[2]) continue;
    named.push(match[2]);
    if (!match[1]) active[match[2]] = match[3] ?? '';
  }
  return { active, named };
}

describe('the systemd unit', () => {
  const unit = settings(UNIT);
  const one = (key: string) => unit.get(key)?.[0];

  it('runs the built server as zapdesk with the environment file, restarting it when it fails', () => {
    expect(one('User')).toBe('zapdesk');
    expect(one('WorkingDirectory')).toBe('/opt/zapdesk');
    expect(one('EnvironmentFile')).toBe('/etc/zapdesk/zapdesk.env');
    expect(one('ExecStart')).toBe('/usr/bin/node apps/server/dist/main.js');
    expect(fs.existsSync(path.join(ROOT, 'apps/server/src/main.ts'))).toBe(true);
    expect(one('Restart')).toBe('on-failure');
  });

  it('stops with SIGTERM and waits longer than the server drains (SHUTDOWN_DELAY_SECONDS + SHUTDOWN_TIMEOUT_SECONDS of the example)', () => {
    expect(one('KillSignal')).toBe('SIGTERM');
    const config = loadConfig({ ...envLines(ENV_EXAMPLE).active, DATA_DIR: '/tmp/zapdesk-unit-check' });
    expect(Number(one('TimeoutStopSec'))).toBeGreaterThan(config.shutdownTimeoutSeconds + config.shutdownDelaySeconds);
  });

  it('is hardened, writing only under its state directory', () => {
    for (const [key, value] of Object.entries({ NoNewPrivileges: 'yes', ProtectSystem: 'strict', ProtectHome: 'yes', PrivateTmp: 'yes', PrivateDevices: 'yes', StateDirectory: 'zapdesk' })) {
      expect(one(key), key).toBe(value);
    }
    expect(unit.get('ReadWritePaths')).toEqual(['/var/lib/zapdesk']);
    expect(one('CapabilityBoundingSet')).toBe('');
    // Node's JIT writes executable memory: this one would stop it at start.
    expect(unit.has('MemoryDenyWriteExecute')).toBe(false);
  });

  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  if (!analyze) console.warn('systemd-analyze is not installed: the unit file is not verified by systemd here.');
  it.runIf(analyze && fs.existsSync('/usr/bin/node'))('passes systemd-analyze verify without a warning', () => {
    const result = spawnSync('systemd-analyze', ['verify', UNIT], { encoding: 'utf8' });
    expect(result.stderr.trim()).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('the example environment file', () => {
  const { active, named } = envLines(ENV_EXAMPLE);

  it('loads as a valid configuration', () => {
    const config = loadConfig(active);
    expect(config.dataDir).toBe('/var/lib/zapdesk');
    expect(config.shutdownTimeoutSeconds).toBe(20);
  });

  it('names only variables of the README configuration table', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(named.filter((name) => !readme.includes(`| \`${name}\``))).toEqual([]);
  });

  it('holds no secret: secret variables are commented placeholders', () => {
    for (const key of ['ADMIN_PASSWORD', 'JWT_SECRET', 'JWT_REFRESH_SECRET', 'SECRETS_KEY', 'DATABASE_URL']) expect(active[key], key).toBeUndefined();
    for (const line of fs.readFileSync(ENV_EXAMPLE, 'utf8').split('\n')) {
      const value = /^#?\s*(?:ADMIN_PASSWORD|JWT_SECRET|JWT_REFRESH_SECRET|SECRETS_KEY)=(.*)$/.exec(line)?.[1];
      if (value !== undefined) expect(value).toMatch(/^<.*>$/);
    }
  });
});
