/**
 * Secrets at rest and in logs: the admin password given in ADMIN_PASSWORD is never printed, a
 * generated one only until it is changed (then it leaves secrets.json); the database, secrets.json
 * and stored media are the owner's only; secret settings are sealed (AES-256-GCM) in the database
 * and never come back in clear through the API.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MASKED_VALUE } from '@zapdesk/shared/domain';
import type { TMessage, TTicket } from '@zapdesk/shared/messaging';
import { buildApp } from './app.js';
import { loadConfig } from './core/config.js';
import { keyFromPassphrase, seal, unseal } from './core/secret-box.js';
import { readSecretSetting, seedSettings } from './features/settings/settings.service.js';
import { createTestApp, type TestApp } from './test/harness.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-secrets-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp(env);
  cleanups.push(() => t.close());
  return t;
}

const mode = (file: string) => fs.statSync(file).mode & 0o777;
/** The database files exist only on SQLite; on PostgreSQL its own server keeps them. */
const dbFiles = process.env.TEST_DB === 'postgres' ? [] : ['zapdesk.sqlite', 'zapdesk.sqlite-wal', 'zapdesk.sqlite-shm'];

/** Everything the real server writes to stdout and stderr until it listens. */
async function startupOutput(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'debug', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', () => reject(new Error(`server exited:\n${output}`)));
  });
  child.kill('SIGTERM');
  await exited;
  return output;
}

describe('the admin password', () => {
  it('given in ADMIN_PASSWORD, is never printed', async () => {
    const dataDir = tempDir();
    const output = await startupOutput({ DATA_DIR: dataDir, ADMIN_EMAIL: 'boss@test.local', ADMIN_PASSWORD: 'Env-Given-Pass-9321', WEB_DIST: path.join(dataDir, 'no-web') });
    expect(output).toContain('boss@test.local');
    expect(output).toContain('the password given in ADMIN_PASSWORD');
    expect(output).not.toContain('Env-Given-Pass-9321');
    expect(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).not.toContain('Env-Given-Pass-9321');
  }, 90_000);

  it('generated on first start, is shown until it is changed, and leaves secrets.json when it is changed', async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, ADMIN_EMAIL: 'first@test.local', LOG_LEVEL: 'silent', WEB_DIST: path.join(dataDir, 'no-web') };
    const first = await buildApp(loadConfig(env));
    const generated = first.admin.password ?? '';
    expect(generated.length).toBeGreaterThanOrEqual(10);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'))).toMatchObject({ initialAdminPassword: generated });
    const login = await first.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'first@test.local', password: generated } });
    const { token, user } = login.json<{ token: string; user: { id: number; name: string } }>();
    const changed = await first.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { name: user.name, email: 'first@test.local', password: 'my-own-pass', currentPassword: generated },
    });
    expect(changed.statusCode).toBe(200);
    // It opens nothing any more: it leaves secrets.json at once, not at the next start.
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'))).not.toHaveProperty('initialAdminPassword');
    await first.close();

    const second = await buildApp(loadConfig(env));
    expect(second.admin).toMatchObject({ password: undefined, fromEnvironment: false });
    const stored = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as Record<string, unknown>;
    expect(stored).not.toHaveProperty('initialAdminPassword');
    expect(JSON.stringify(stored)).not.toContain(generated);
    await second.close();
  });

  it('generated, is printed by the real server until it is changed, and no more afterwards', async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, ADMIN_EMAIL: 'printed@test.local', WEB_DIST: path.join(dataDir, 'no-web') };
    const first = await startupOutput(env);
    const { initialAdminPassword: generated = '' } = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as { initialAdminPassword?: string };
    expect(generated.length).toBeGreaterThanOrEqual(10);
    expect(first).toContain(generated);

    const built = await buildApp(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    const login = await built.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'printed@test.local', password: generated } });
    const { token, user } = login.json<{ token: string; user: { id: number; name: string } }>();
    const changed = await built.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { name: user.name, email: 'printed@test.local', password: 'chosen-by-me', currentPassword: generated },
    });
    expect(changed.statusCode).toBe(200);
    await built.close();

    const second = await startupOutput(env);
    expect(second).toContain('printed@test.local');
    expect(second).not.toContain(generated);
    expect(second).not.toContain('chosen-by-me');
  }, 120_000);
});

describe('files readable by the owner only', () => {
  it('creates DATA_DIR, the database (and its -wal and -shm), secrets.json and stored media owner-only', async () => {
    const parent = tempDir();
    const dataDir = path.join(parent, 'data');
    const t = await app({ DATA_DIR: dataDir, SIMULATOR: 'on' });
    const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Phone', channel: 'simulator', isDefault: true } });
    const id = created.json<{ id: number }>().id;
    await t.request({ method: 'POST', url: `/api/simulator/${id}/scan`, token: t.adminToken });
    const sent = await t.request({
      method: 'POST',
      url: `/api/simulator/${id}/inbound`,
      token: t.adminToken,
      payload: { from: '5511988887777', media: { base64: Buffer.from('%PDF-1.4 x').toString('base64'), mimetype: 'application/pdf', filename: 'nota.pdf' } },
    });
    expect(sent.statusCode).toBe(200);
    const ticket = (await t.request({ method: 'GET', url: '/api/tickets?showAll=true&searchParam=5511988887777', token: t.adminToken })).json<{ tickets: TTicket[] }>().tickets[0];
    const message = (await t.request({ method: 'GET', url: `/api/messages/${ticket?.id ?? 0}`, token: t.adminToken })).json<{ messages: TMessage[] }>().messages[0];
    expect(message?.mediaType).toBe('other');

    expect(mode(dataDir)).toBe(0o700);
    for (const file of [...dbFiles, 'secrets.json']) expect(mode(path.join(dataDir, file)), file).toBe(0o600);
    const mediaRoot = path.join(dataDir, 'media');
    expect(mode(mediaRoot)).toBe(0o700);
    const month = fs.readdirSync(mediaRoot)[0] ?? '';
    const stored = fs.readdirSync(path.join(mediaRoot, month));
    expect(stored).toHaveLength(1);
    expect(mode(path.join(mediaRoot, month))).toBe(0o700);
    expect(mode(path.join(mediaRoot, month, stored[0] ?? ''))).toBe(0o600);
  });

  it('tightens the files an earlier version left readable by others', async () => {
    const dataDir = tempDir();
    const first = await app({ DATA_DIR: dataDir });
    await first.close();
    cleanups.pop();
    const files = [...dbFiles.slice(0, 1), 'secrets.json'];
    for (const file of files) fs.chmodSync(path.join(dataDir, file), 0o644);
    await app({ DATA_DIR: dataDir });
    for (const file of files) expect(mode(path.join(dataDir, file)), file).toBe(0o600);
  });
});

describe('secret settings at rest', () => {
  it('stores them sealed with a key generated into secrets.json, and never returns them in clear', async () => {
    const dataDir = tempDir();
    const t = await app({ DATA_DIR: dataDir });
    const put = await t.request({ method: 'PUT', url: '/api/settings/emailPass', token: t.adminToken, payload: { value: 'smtp-S3cret!' } });
    expect(put.json()).toMatchObject({ value: MASKED_VALUE, isSet: true });
    const raw = await t.ctx.db.selectFrom('settings').select('value').where('key', '=', 'emailPass').executeTakeFirstOrThrow();
    expect(raw.value).toMatch(/^enc:v1:/);
    expect(raw.value).not.toContain('smtp-S3cret');
    const secrets = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as { settingsKey: string };
    expect(unseal(keyFromPassphrase(secrets.settingsKey), raw.value)).toBe('smtp-S3cret!');
    expect(await readSecretSetting(t.ctx, 'emailPass')).toBe('smtp-S3cret!');
    const list = await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken });
    expect(list.body).not.toContain('smtp-S3cret');

    // A form sent back with the mask keeps the secret; a new value replaces it; empty clears it.
    await t.request({ method: 'PUT', url: '/api/settings/emailPass', token: t.adminToken, payload: { value: MASKED_VALUE } });
    expect(await readSecretSetting(t.ctx, 'emailPass')).toBe('smtp-S3cret!');
    await t.request({ method: 'PUT', url: '/api/settings/emailPass', token: t.adminToken, payload: { value: '' } });
    expect(await readSecretSetting(t.ctx, 'emailPass')).toBe('');
  });

  it('uses SECRETS_KEY when given, and at start seals values an earlier version stored in clear', async () => {
    const dataDir = tempDir();
    const key = 'a passphrase kept outside the data folder';
    const t = await app({ DATA_DIR: dataDir, SECRETS_KEY: key });
    await t.ctx.db.updateTable('settings').set({ value: 'plain-vonage-secret' }).where('key', '=', 'vonageApiSecret').execute();
    // What a start does after the migrations.
    await seedSettings(t.ctx);
    const raw = await t.ctx.db.selectFrom('settings').select('value').where('key', '=', 'vonageApiSecret').executeTakeFirstOrThrow();
    expect(raw.value).toMatch(/^enc:v1:/);
    expect(unseal(keyFromPassphrase(key), raw.value)).toBe('plain-vonage-secret');
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'))).not.toHaveProperty('settingsKey');
  });

  it('refuses to read a value sealed with another key (SECRETS_KEY changed) with ERR_SECRET_UNREADABLE, and the API still shows it masked', async () => {
    const t = await app({ SECRETS_KEY: 'the key this server runs with' });
    const other = seal(keyFromPassphrase('the key of another install'), 'sealed-elsewhere');
    await t.ctx.db.updateTable('settings').set({ value: other }).where('key', '=', 'emailPass').execute();
    await expect(readSecretSetting(t.ctx, 'emailPass')).rejects.toMatchObject({ code: 'ERR_SECRET_UNREADABLE' });
    const list = await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken });
    expect(list.json<{ key: string }[]>().find((s) => s.key === 'emailPass')).toMatchObject({ value: MASKED_VALUE, isSet: true });
    expect(list.body).not.toContain(other);
  });
});
