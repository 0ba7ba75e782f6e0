/**
 * The audit log: what each audited call records (who, from where, how it ended), that secrets
 * never reach it, the admins' list with its filters, the CSV export, the retention sweep, and
 * that no route changes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAuditEvent, TAuditList } from '@zapdesk/shared/audit';
import { Secret, TOTP } from 'otpauth';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { insertAuditEvent } from './audit.repository.js';
import { sweepAudit } from './audit.service.js';

let t: TestApp;
let plain: { id: number; token: string; email: string };
const BROWSER = 'Mozilla/5.0 (AuditTest)';

async function events(query: Record<string, string | number> = {}, token = t.adminToken): Promise<TAuditEvent[]> {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) search.set(key, String(value));
  const res = await t.request({ method: 'GET', url: `/api/audit?${search.toString()}`, token });
  expect(res.statusCode).toBe(200);
  return res.json<TAuditList>().events;
}

/** Every stored row as the database holds it, for looking for what must never be there. */
async function rawRows(): Promise<string> {
  return JSON.stringify(await t.ctx.db.selectFrom('auditEvents').selectAll().execute());
}

function localDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  const made = await t.createUser({ name: 'Plain Agent', email: 'plain.audit@test.local' });
  plain = { id: made.user.id, token: made.token, email: made.user.email };
});
afterAll(async () => {
  await t.close();
});

describe('what is recorded', () => {
  it('a sign-in: the user, the address and the browser, ok', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: plain.email, password: 'secret-pass' }, headers: { 'user-agent': BROWSER } });
    expect(res.statusCode).toBe(200);
    const [row] = await events({ action: 'auth.login', userId: plain.id });
    expect(row).toMatchObject({ actorKind: 'user', actorUserId: plain.id, actorName: 'Plain Agent', ip: '127.0.0.1', userAgent: BROWSER, outcome: 'ok', statusCode: 200 });
  });

  it('a failed sign-in: the e-mail tried and the address, never the password', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'Plain.Audit@test.local', password: 'wrong-guess-123' } });
    expect(res.statusCode).toBe(401);
    const [row] = await events({ action: 'auth.login_failed' });
    expect(row).toMatchObject({ actorKind: 'anonymous', actorUserId: null, actorName: 'plain.audit@test.local', targetType: null, ip: '127.0.0.1', outcome: 'denied', statusCode: 401 });
    expect(row?.detail).toMatchObject({ email: 'plain.audit@test.local', error: 'ERR_INVALID_CREDENTIALS' });
    expect(await rawRows()).not.toContain('wrong-guess-123');
  });

  it('a user update: the admin, the user changed and its name; a password set is said, never written', async () => {
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/${plain.id}`,
      token: t.adminToken,
      payload: { name: 'Plain Renamed', email: plain.email, password: 'new-pass-456', profile: 'user', queueIds: [] },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await events({ action: 'users.update' });
    expect(row).toMatchObject({ actorKind: 'user', actorUserId: 1, targetType: 'user', targetId: String(plain.id), targetName: 'Plain Renamed', outcome: 'ok' });
    expect(row?.detail).toMatchObject({ passwordSet: true, profile: 'user' });
    expect(await rawRows()).not.toContain('new-pass-456');
    plain.token = (await t.login(plain.email, 'new-pass-456')).token;
  });

  it("one's own password change is recorded as such", async () => {
    const own = await t.createUser({ name: 'Self Changer' });
    const res = await t.request({
      method: 'PUT',
      url: `/api/users/${own.user.id}`,
      token: own.token,
      payload: { name: 'Self Changer', email: own.user.email, password: 'changed-789', currentPassword: own.password },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await events({ action: 'auth.password_change' });
    expect(row).toMatchObject({ actorUserId: own.user.id, targetId: String(own.user.id), outcome: 'ok' });
    expect(await rawRows()).not.toContain('changed-789');
  });

  it('a setting change keeps the key only: a secret value never reaches the log, nor a regenerated token', async () => {
    const secret = 'smtp-secret-value-xyz';
    expect((await t.request({ method: 'PUT', url: '/api/settings/emailPass', token: t.adminToken, payload: { value: secret } })).statusCode).toBe(200);
    const regenerated = await t.request({ method: 'POST', url: '/api/settings/userApiToken/regenerate', token: t.adminToken });
    expect(regenerated.statusCode).toBe(200);
    const [change] = await events({ action: 'settings.update' });
    expect(change).toMatchObject({ actorUserId: 1, targetType: 'setting', targetId: 'emailPass', outcome: 'ok' });
    const [regen] = await events({ action: 'settings.api_token_regenerate' });
    expect(regen).toMatchObject({ targetId: 'userApiToken', outcome: 'ok' });
    const raw = await rawRows();
    expect(raw).not.toContain(secret);
    expect(raw).not.toContain(regenerated.json<{ value: string }>().value);
    const csv = (await t.request({ method: 'GET', url: '/api/audit/export', token: t.adminToken })).body;
    expect(csv).not.toContain(secret);
  });

  it('a contacts export', async () => {
    expect((await t.request({ method: 'GET', url: '/api/contacts/export', token: plain.token })).statusCode).toBe(200);
    const [row] = await events({ action: 'contacts.export' });
    expect(row).toMatchObject({ actorUserId: plain.id, actorName: 'Plain Renamed', outcome: 'ok' });
  });

  it("a send through the tool API with the userApiToken: the token is the actor, the campaign the target; a token's reads are its uses", async () => {
    const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Audit phone', channel: 'simulator' } });
    const connectionId = created.json<{ id: number }>().id;
    await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken });
    const apiToken = (await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken })).json<{ key: string; value: string }[]>().find((s) => s.key === 'userApiToken')?.value ?? '';
    const sent = await t.request({ method: 'POST', url: '/api/zdg', payload: { number: '447700900123', message: 'Olá', ticketwhatsappId: connectionId, token: apiToken } });
    expect(sent.statusCode).toBe(202);
    const [row] = await events({ action: 'campaigns.create' });
    expect(row).toMatchObject({ actorKind: 'apiToken', actorUserId: null, tokenName: 'userApiToken', targetType: 'campaign', targetId: String(sent.json<{ id: number }>().id), outcome: 'ok' });
    expect(row?.detail).toMatchObject({ recipients: 1 });
    expect(await rawRows()).not.toContain(apiToken);

    // Reading with the token is a use; the same read by a session is not worth a row.
    expect((await t.request({ method: 'GET', url: '/api/whatsappzdg', headers: { authorization: `Bearer ${apiToken}` } })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/whatsappzdg', token: t.adminToken })).statusCode).toBe(200);
    const uses = await events({ action: 'apiToken.use' });
    expect(uses).toHaveLength(1);
    expect(uses[0]).toMatchObject({ actorKind: 'apiToken', tokenName: 'userApiToken' });

    // A wrong token is a denied call, by nobody known.
    expect((await t.request({ method: 'POST', url: '/api/zdg', payload: { number: '447700900123', message: 'Olá', ticketwhatsappId: connectionId, token: 'not-the-token' } })).statusCode).toBe(401);
    const [denied] = await events({ action: 'campaigns.create', outcome: 'denied' });
    expect(denied).toMatchObject({ actorKind: 'anonymous', statusCode: 401, detail: { error: 'ERR_API_TOKEN_INVALID' } });
    expect(await rawRows()).not.toContain('not-the-token');
  });

  it('roles, the role given to an agent, named tokens and two-factor sign-in: who, what, never the token or the code', async () => {
    const role = await t.request({ method: 'POST', url: '/api/roles', token: t.adminToken, payload: { name: 'Sem envios', permissions: ['groups'] } });
    expect(role.statusCode).toBe(201);
    const roleId = role.json<{ id: number }>().id;
    const given = await t.request({ method: 'PUT', url: `/api/users/${plain.id}`, token: t.adminToken, payload: { name: 'Plain Agent', email: plain.email, roleId } });
    expect(given.statusCode).toBe(200);
    const [created] = await events({ action: 'roles.create' });
    expect(created).toMatchObject({ actorKind: 'user', actorName: expect.any(String), targetType: 'role', targetId: String(roleId), targetName: 'Sem envios', outcome: 'ok' });
    expect(created?.detail).toMatchObject({ permissions: ['groups'] });
    const [update] = await events({ action: 'users.update', userId: 1 });
    expect(update).toMatchObject({ targetType: 'user', targetId: String(plain.id), outcome: 'ok' });
    expect(update?.detail).toMatchObject({ role: 'Sem envios' });

    const made = await t.request({ method: 'POST', url: '/api/api-tokens', token: t.adminToken, payload: { name: 'ERP', permissions: ['campaigns'] } });
    expect(made.statusCode).toBe(201);
    const { token, apiToken } = made.json<{ token: string; apiToken: { id: number } }>();
    expect((await t.request({ method: 'DELETE', url: `/api/api-tokens/${apiToken.id}`, token: t.adminToken })).statusCode).toBe(200);
    expect(await events({ action: 'apiTokens.create' })).toMatchObject([{ targetType: 'apiToken', targetId: String(apiToken.id), targetName: 'ERP', outcome: 'ok' }]);
    expect(await events({ action: 'apiTokens.revoke' })).toMatchObject([{ targetId: String(apiToken.id), outcome: 'ok' }]);
    expect(await rawRows()).not.toContain(token);

    const setup = await t.request({ method: 'POST', url: '/api/auth/2fa/setup', token: plain.token });
    expect(setup.statusCode).toBe(200);
    const { secret } = setup.json<{ secret: string }>();
    const code = TOTP.generate({ secret: Secret.fromBase32(secret) });
    expect((await t.request({ method: 'POST', url: '/api/auth/2fa/enable', token: plain.token, payload: { code } })).statusCode).toBe(200);
    expect(await events({ action: 'auth.totp_enable', userId: plain.id })).toMatchObject([{ actorName: 'Plain Agent', outcome: 'ok' }]);
    expect(await rawRows()).not.toContain(secret);
  });

  it('a denied call: the agent who tried, from where, denied with its status', async () => {
    const res = await t.request({ method: 'PUT', url: '/api/settings/timeCreateNewTicket', token: plain.token, payload: { value: '60' }, headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(res.statusCode).toBe(403);
    const [row] = await events({ action: 'settings.update', outcome: 'denied' });
    // TRUST_PROXY is off: the forwarded address is the client's own claim, not where it came from.
    expect(row).toMatchObject({ actorKind: 'user', actorUserId: plain.id, ip: '127.0.0.1', outcome: 'denied', statusCode: 403, detail: { error: 'ERR_NO_PERMISSION' } });

    expect((await t.request({ method: 'DELETE', url: '/api/users/1' })).statusCode).toBe(401);
    const [anonymous] = await events({ action: 'users.delete', outcome: 'denied' });
    expect(anonymous).toMatchObject({ actorKind: 'anonymous', actorName: '', targetId: '1', statusCode: 401 });
  });

  it('an action that did not happen is failed, with its code', async () => {
    expect((await t.request({ method: 'DELETE', url: '/api/queue/999999', token: t.adminToken })).statusCode).toBe(404);
    const [row] = await events({ action: 'queues.delete' });
    expect(row).toMatchObject({ outcome: 'failed', statusCode: 404, targetId: '999999', detail: { error: 'ERR_NO_QUEUE_FOUND' } });
  });

  it('keeps control characters out of a row: a NUL in an address or a browser name is recorded without it', async () => {
    const res = await t.request({ method: 'PUT', url: '/api/settings/abc%00', token: t.adminToken, payload: { value: 'x' }, headers: { 'user-agent': 'Agent\u0000Zero' } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.json<{ error: string }>().error).toMatch(/^ERR_/);
    const [row] = await events({ action: 'settings.update', outcome: 'failed' });
    expect(row).toMatchObject({ targetId: 'abc', userAgent: 'AgentZero' });
  });

  it('an acknowledged action is recorded: the row is there when the answer arrives', async () => {
    const res = await t.request({ method: 'POST', url: '/api/queue', token: t.adminToken, payload: { name: 'Audit queue', color: '#a1b2c3', greetingMessage: '' } });
    expect(res.statusCode).toBe(201);
    // Read straight away, with no waiting: the hook stored it before the answer left.
    const row = await t.ctx.db.selectFrom('auditEvents').selectAll().where('action', '=', 'queues.create').where('targetId', '=', String(res.json<{ id: number }>().id)).executeTakeFirst();
    expect(row).toMatchObject({ actorUserId: 1, targetName: 'Audit queue', outcome: 'ok' });
  });
});

describe('the admins’ list', () => {
  it('filters by action (exact or a prefix), user, outcome, period and text, newest first', async () => {
    const auth = await events({ action: 'auth' });
    expect(auth.length).toBeGreaterThan(0);
    expect(auth.every((e) => e.action.startsWith('auth.'))).toBe(true);
    expect(new Set(auth.map((e) => e.action))).toEqual(new Set(['auth.login', 'auth.login_failed', 'auth.password_change', 'auth.totp_enable']));
    expect((await events({ action: 'auth.login' })).every((e) => e.action === 'auth.login')).toBe(true);

    const mine = await events({ userId: plain.id });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.actorUserId === plain.id)).toBe(true);

    expect((await events({ outcome: 'denied' })).every((e) => e.outcome === 'denied')).toBe(true);

    const all = await events();
    expect(all.map((e) => e.at)).toEqual([...all.map((e) => e.at)].sort().reverse());
    const today = localDay(new Date());
    expect(await events({ from: today, to: today })).toHaveLength(all.length);
    const tomorrow = localDay(new Date(Date.now() + 36 * 3600 * 1000));
    expect(await events({ from: tomorrow })).toEqual([]);

    const found = await events({ searchParam: 'plain renamed' });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((e) => e.actorName === 'Plain Renamed' || e.targetName === 'Plain Renamed')).toBe(true);
  });

  it('pages through the rows', async () => {
    const start = Date.now() - 60_000;
    for (let i = 0; i < 55; i += 1) {
      await insertAuditEvent(t.ctx.db, {
        at: new Date(start - i * 1000).toISOString(),
        actor: { kind: 'user', userId: 1, name: 'Admin', tokenName: null },
        action: 'contacts.delete',
        targetType: 'contact',
        targetId: String(i + 1),
        targetName: null,
        detail: {},
        ip: '10.0.0.1',
        userAgent: '',
        outcome: 'ok',
        statusCode: 204,
      });
    }
    const first = (await t.request({ method: 'GET', url: '/api/audit?action=contacts.delete', token: t.adminToken })).json<TAuditList>();
    expect(first).toMatchObject({ count: 55, hasMore: true });
    expect(first.events).toHaveLength(50);
    const second = (await t.request({ method: 'GET', url: '/api/audit?action=contacts.delete&pageNumber=2', token: t.adminToken })).json<TAuditList>();
    expect(second).toMatchObject({ count: 55, hasMore: false });
    expect(second.events.map((e) => e.targetId)).toEqual(['51', '52', '53', '54', '55']);
  });

  it('refuses a malformed filter with 400 ERR_VALIDATION', async () => {
    for (const query of ['from=yesterday', 'outcome=maybe', 'userId=abc', 'action=users;drop']) {
      const res = await t.request({ method: 'GET', url: `/api/audit?${query}`, token: t.adminToken });
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ error: string }>().error).toBe('ERR_VALIDATION');
    }
  });

  it('is for admins only: 403 for an agent, 401 without a session', async () => {
    for (const url of ['/api/audit', '/api/audit/export']) {
      expect((await t.request({ method: 'GET', url, token: plain.token })).json<{ error: string }>().error).toBe('ERR_NO_PERMISSION');
      expect((await t.request({ method: 'GET', url })).statusCode).toBe(401);
    }
  });
});

describe('the CSV export', () => {
  it('is zdg.csv, ;-separated with a BOM, with the list’s filters; taking it is recorded', async () => {
    const res = await t.request({ method: 'GET', url: '/api/audit/export?action=auth', token: t.adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="zdg.csv"');
    expect(res.body.startsWith('\uFEFF"at";"actor_kind";"actor_user_id";"actor";')).toBe(true);
    const lines = res.body.trim().split('\r\n').slice(1);
    expect(lines.length).toBe((await events({ action: 'auth' })).length);
    expect(lines.every((line) => /;"auth\.[a-z_]+";/.test(line))).toBe(true);
    expect(lines.some((line) => line.includes('"plain.audit@test.local"') && line.includes('"denied";"401"'))).toBe(true);
    const [taken] = await events({ action: 'audit.export' });
    expect(taken).toMatchObject({ actorUserId: 1, outcome: 'ok', detail: { action: 'auth' } });
  });
});

describe('keeping the log', () => {
  it('has no route that changes or deletes a row', () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const auditRoutes = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/audit'))
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
    expect(auditRoutes.sort()).toEqual(['GET /api/audit', 'GET /api/audit/export']);
  });

  it('the retention sweep deletes the rows older than AUDIT_RETENTION_DAYS only', async () => {
    expect(t.ctx.config.auditRetentionDays).toBe(365);
    const day = 24 * 3600 * 1000;
    const base = {
      actor: { kind: 'anonymous', userId: null, name: 'old', tokenName: null },
      action: 'auth.login_failed',
      targetType: null,
      targetName: null,
      detail: {},
      ip: '10.0.0.2',
      userAgent: '',
      outcome: 'denied',
      statusCode: 401,
    } as const;
    await insertAuditEvent(t.ctx.db, { ...base, at: new Date(Date.now() - 366 * day).toISOString(), targetId: 'too-old' });
    await insertAuditEvent(t.ctx.db, { ...base, at: new Date(Date.now() - 364 * day).toISOString(), targetId: 'kept' });
    const before = (await t.ctx.db.selectFrom('auditEvents').select('id').execute()).length;
    expect(await sweepAudit(t.ctx)).toBe(1);
    const left = await t.ctx.db.selectFrom('auditEvents').select('targetId').execute();
    expect(left).toHaveLength(before - 1);
    expect(left.map((r) => r.targetId)).toContain('kept');
    expect(left.map((r) => r.targetId)).not.toContain('too-old');
  });
});
