/**
 * Backup while messages arrive, restore elsewhere, compare. The real server runs as a child
 * process on SQLite (or PostgreSQL with TEST_DB=postgres and pg_dump installed); `npm run backup`
 * runs while a simulated phone keeps sending; the archive is restored into another DATA_DIR,
 * MEDIA_DIR and database, and a server started there serves the same tickets, messages, media
 * and sessions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { openDatabase } from '../../core/db/database.js';
import { keyFromPassphrase, unseal } from '../../core/secret-box.js';
import { newPlace, PNG, postgresToolsPresent, runCli, snapshotTree, type Place } from '../../test/backup-kit.js';
import { call, kill, startServer, waitFor, type Server } from '../../test/server-process.js';
import { runRestore } from './restore.js';

const ADMIN = { email: 'backup@test.local', password: 'backup-pass' };
const onPostgres = process.env.TEST_DB === 'postgres';
const toolsPresent = !onPostgres || postgresToolsPresent();
if (!toolsPresent) console.warn('backup-restore on PostgreSQL skipped: pg_dump/pg_restore are not installed (Debian: apt-get install postgresql-client).');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function serverOn(place: Place): Promise<Server> {
  return startServer(
    { ...place.env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, SIMULATOR: 'on', LOG_LEVEL: 'error', LOGIN_RATE_LIMIT: '1000', WEB_DIST: path.join(place.dataDir, 'no-web') },
    cleanups,
  );
}

/** Signs in; returns the access token and the refresh cookie (`jrt=…`). */
async function signIn(server: Server): Promise<{ token: string; refreshCookie: string }> {
  const res = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  expect(res.status).toBe(200);
  const { token } = (await res.json()) as { token: string };
  const refreshCookie =
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith('jrt='))
      ?.split(';')[0] ?? '';
  expect(refreshCookie).not.toBe('');
  return { token, refreshCookie };
}

type ApiMessage = { id: number; body: string; mediaUrl: string | null };

async function messagesOf(server: Server, token: string, ticketId: number): Promise<ApiMessage[]> {
  const all: ApiMessage[] = [];
  for (let page = 1; ; page += 1) {
    const res = await call<{ messages: ApiMessage[]; hasMore: boolean }>(server, 'GET', `/api/messages/${ticketId}?pageNumber=${page}`, { token });
    expect(res.status).toBe(200);
    all.push(...res.body.messages);
    if (!res.body.hasMore) return all.sort((a, b) => a.id - b.id);
  }
}

async function ticketIds(server: Server, token: string): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page += 1) {
    const res = await call<{ tickets: { id: number }[]; hasMore: boolean }>(server, 'GET', `/api/tickets?showAll=true&pageNumber=${page}`, { token });
    expect(res.status).toBe(200);
    ids.push(...res.body.tickets.map((t) => t.id));
    if (!res.body.hasMore) return ids.sort((a, b) => a - b);
  }
}

describe.skipIf(!toolsPresent)(`backup and restore (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('backs up while messages arrive; the restored product serves the same tickets, messages, media and sessions', async () => {
    const origin = await newPlace(cleanups, 'backup-a');
    const server = await serverOn(origin);
    const { token, refreshCookie } = await signIn(server);
    const created = await call<{ id: number }>(server, 'POST', '/api/whatsapp', { token, body: { name: 'Backup phone', channel: 'simulator', isDefault: true } });
    expect(created.status).toBe(201);
    const connectionId = created.body.id;
    expect((await call(server, 'POST', `/api/simulator/${connectionId}/scan`, { token })).status).toBe(200);
    // A secret setting, sealed with secrets.json's key.
    expect((await call(server, 'PUT', '/api/settings/emailPass', { token, body: { value: 'mail-secret-42' } })).status).toBe(200);

    const send = (id: string, from: string, extra: Record<string, unknown> = {}) =>
      call(server, 'POST', `/api/simulator/${connectionId}/inbound`, { token, body: { id, from, body: `text of ${id}`, ...extra } });
    expect((await send('PHOTO', '5511900000001', { media: { base64: PNG.toString('base64'), mimetype: 'image/png', filename: 'photo.png' } })).status).toBe(200);
    const before = Array.from({ length: 20 }, (_, i) => `BEFORE-${i}`);
    for (const id of before) expect((await send(id, `551190000000${before.indexOf(id) % 5}`)).status).toBe(200);

    // Messages keep arriving (4 at a time) while the backup runs.
    let stop = false;
    let backupRunning = false;
    let sentDuringBackup = 0;
    const acked: string[] = [];
    let n = 0;
    const traffic = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!stop) {
          const id = `DURING-${(n += 1)}`;
          const res = await send(id, `55119100000${String(n % 7).padStart(2, '0')}`);
          expect(res.status).toBe(200);
          acked.push(id);
          if (backupRunning) sentDuringBackup += 1;
        }
      }),
    );
    await waitFor(
      async () => n,
      (count) => count >= 20,
    );
    const outDir = path.join(path.dirname(origin.dataDir), 'backups');
    const ackedBeforeBackup = ['PHOTO', ...before, ...acked];
    backupRunning = true;
    const backup = await runCli(['backup', '--out', `${outDir}/`], origin.env);
    backupRunning = false;
    stop = true;
    await traffic;
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(sentDuringBackup).toBeGreaterThan(0);
    const archive = /^backup written: (\S+) \(/.exec(backup.stdout)?.[1] ?? '';
    expect(backup.stdout).toMatch(/1 media file .*secrets included; ZapDesk \S+, schema \d{3}_\w+\)\n$/);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(outDir)).toEqual([path.basename(archive)]);
    // Nothing secret in what it prints.
    const secrets = JSON.parse(fs.readFileSync(path.join(origin.dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
    for (const value of Object.values(secrets)) expect(backup.stdout).not.toContain(value);

    // The product runs: restore refuses, and changes nothing.
    const originFiles = snapshotTree(origin.mediaDir);
    await expect(runRestore(loadConfig(origin.env), archive)).rejects.toThrow(/^ZapDesk is running on .* stop it first.*Nothing was changed\.$/);
    expect(snapshotTree(origin.mediaDir)).toEqual(originFiles);
    expect(fs.readdirSync(origin.dataDir).filter((name) => name.includes('before-restore'))).toEqual([]);
    await kill(server);

    const copy = await newPlace(cleanups, 'backup-b');
    const restored = await runCli(['restore', archive], copy.env);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/^restored .* 1 media file, secrets\.json\. Start ZapDesk now/);
    expect(fs.readFileSync(path.join(copy.dataDir, 'secrets.json'), 'utf8')).toBe(fs.readFileSync(path.join(origin.dataDir, 'secrets.json'), 'utf8'));

    // What the archive's database holds: every message acknowledged before the backup began, and
    // a sealed setting that opens with the restored secrets.json.
    const handle = openDatabase({ databaseUrl: copy.databaseUrl, dataDir: copy.dataDir });
    const rows = await handle.db.selectFrom('messages').select(['id', 'ticketId', 'providerId', 'body', 'mediaPath']).orderBy('id').execute();
    const tickets = await handle.db.selectFrom('tickets').select(['id', 'contactId']).orderBy('id').execute();
    const sealed = await handle.db.selectFrom('settings').select('value').where('key', '=', 'emailPass').executeTakeFirstOrThrow();
    await handle.close();
    const stored = new Set(rows.map((r) => r.providerId));
    expect(ackedBeforeBackup.filter((id) => !stored.has(id))).toEqual([]);
    expect(unseal(keyFromPassphrase(secrets.settingsKey ?? ''), sealed.value)).toBe('mail-secret-42');

    const second = await serverOn(copy);
    // Sign-in, and a session of the first server (its refresh token) goes on.
    const again = await signIn(second);
    const refreshed = await fetch(`${second.url}/api/auth/refresh_token`, { method: 'POST', headers: { cookie: refreshCookie } });
    expect(refreshed.status).toBe(200);

    expect(await ticketIds(second, again.token)).toEqual(tickets.map((t) => t.id));
    let photo: ApiMessage | undefined;
    for (const ticket of tickets) {
      const served = await messagesOf(second, again.token, ticket.id);
      const expected = rows.filter((r) => r.ticketId === ticket.id);
      expect(served.map((m) => [m.id, m.body])).toEqual(expected.map((r) => [r.id, r.body]));
      photo ??= served.find((m) => m.mediaUrl !== null);
    }
    expect(photo?.body).toBe('text of PHOTO');
    const media = await fetch(`${second.url}${photo?.mediaUrl ?? ''}`);
    expect(media.status).toBe(200);
    expect(Buffer.from(await media.arrayBuffer()).equals(PNG)).toBe(true);
  }, 120_000);
});
