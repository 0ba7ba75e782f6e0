/** Named API tokens: made by admins, shown once, stored hashed, scoped, expiring, revocable, and their last use. */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TApiToken, TApiTokenCreated } from '@zapdesk/shared/api-tokens';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import type { TSetting } from '@zapdesk/shared/schemas';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let phone: number;
let userApiToken: string;
let n = 0;

const createToken = (payload: Record<string, unknown>, token = t.adminToken) => t.request({ method: 'POST', url: '/api/api-tokens', token, payload });
const listTokens = async () => (await t.request({ method: 'GET', url: '/api/api-tokens', token: t.adminToken })).json<{ apiTokens: TApiToken[] }>().apiTokens;

async function newToken(permissions: string[], extra: Record<string, unknown> = {}): Promise<TApiTokenCreated> {
  const res = await createToken({ name: `Integração ${(n += 1)}`, permissions, ...extra });
  expect(res.statusCode).toBe(201);
  return res.json<TApiTokenCreated>();
}

/** A group of the phone where it is admin, made on the simulated phone. */
async function adminGroup(): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: `/api/simulator/${phone}/groups`,
    token: t.adminToken,
    payload: { subject: `Grupo ${(n += 1)}`, participants: [{ number: '447700810001' }] },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string }>().id;
}

/** The group tool (needs 'groups'), with the token as the bearer. */
async function renameGroups(token: string) {
  return t.request({ method: 'POST', url: '/api/zdgGroups', token, payload: { subject: 'Novo nome', ticketwhatsappId: phone, groupIds: [await adminGroup()] } });
}

/** An SMS through the tool API (needs 'phone'), with the token in the body as the spec's examples do. */
const sendSms = (token: string) => t.request({ method: 'POST', url: '/api/sendSms', payload: { to: '5511988887777', text: 'Oi', token } });

const storedRow = (id: number) => t.ctx.db.selectFrom('apiTokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Tokens phone', channel: 'simulator', isDefault: true } });
  phone = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${phone}/scan`, token: t.adminToken });
  const settings = (await t.request({ method: 'GET', url: '/api/settings', token: t.adminToken })).json<TSetting[]>();
  userApiToken = settings.find((s) => s.key === 'userApiToken')?.value ?? '';
  expect(userApiToken).not.toBe('');
});
afterAll(async () => {
  await t.close();
});

describe('named API tokens', () => {
  it('are shown once: the answer to their creation holds the token, the list and the database never do', async () => {
    const { token, apiToken } = await newToken(['groups', 'campaigns'], { name: '  Zapier  ' });
    expect(token).toMatch(/^zdk_[A-Za-z0-9_-]{43}$/);
    expect(apiToken).toMatchObject({ name: 'Zapier', prefix: token.slice(0, 10), permissions: ['campaigns', 'groups'], expiresAt: null, lastUsedAt: null, revokedAt: null, createdBy: { id: 1 } });
    const listed = await listTokens();
    expect(listed.find((x) => x.id === apiToken.id)).toEqual(apiToken);
    expect(JSON.stringify(listed)).not.toContain(token);
    const row = await storedRow(apiToken.id);
    expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token.slice(10));
  });

  it('act with their permissions only: a groups token renames groups but may not send an SMS', async () => {
    const { token } = await newToken(['groups']);
    const renamed = await renameGroups(token);
    expect(renamed.statusCode).toBe(202);
    const refused = await sendSms(token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    // Refused before the body is read: bad input changes nothing in the answer.
    expect((await t.request({ method: 'POST', url: '/api/sendSms', token, payload: { to: 42 } })).json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    // The send it made is readable with it; a bulk send of another kind is not found for it.
    const own = await t.request({ method: 'GET', url: `/api/campaigns/${renamed.json<{ id: number }>().id}`, token });
    expect(own.statusCode).toBe(200);
    expect(own.json<TCampaign>()).toMatchObject({ kind: 'groupSubject', source: 'api', userId: null });
    const bulk = await t.request({
      method: 'POST',
      url: '/api/campaigns',
      token: t.adminToken,
      payload: { kind: 'text', whatsappId: phone, numbers: '447700810099', message: 'Oi', minDelay: 0, maxDelay: 0, scheduledAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    const bulkId = bulk.json<{ campaign: { id: number } }>().campaign.id;
    for (const url of [`/api/campaigns/${bulkId}`, `/api/campaigns/${bulkId}/recipients`]) {
      expect((await t.request({ method: 'GET', url, token })).json()).toMatchObject({ error: 'ERR_NO_CAMPAIGN_FOUND' });
      expect((await t.request({ method: 'GET', url, token: userApiToken })).statusCode).toBe(200);
    }
  });

  it('the userApiToken keeps every permission (admin rights, as the spec says)', async () => {
    expect((await renameGroups(userApiToken)).statusCode).toBe(202);
    // Allowed; answered 400 because no SMS sender is set.
    expect((await sendSms(userApiToken)).json()).toMatchObject({ error: 'ERR_VONAGE_NO_SENDER' });
  });

  it('a wrong token answers 401 ERR_API_TOKEN_INVALID, in the body or as the bearer', async () => {
    const { token } = await newToken(['phone']);
    // The right one is let through (answered 400 because no SMS sender is set).
    expect((await sendSms(token)).json()).toMatchObject({ error: 'ERR_VONAGE_NO_SENDER' });
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const res of [await sendSms(wrong), await renameGroups(wrong), await sendSms('zdk_nothing'), await sendSms('not-a-token')]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'ERR_API_TOKEN_INVALID' });
    }
    // Beside a valid session, a wrong named token is still refused: it never falls back silently.
    const both = await t.request({ method: 'POST', url: '/api/sendSms', token: t.adminToken, payload: { to: '5511988887777', text: 'Oi', token: wrong } });
    expect(both.json()).toMatchObject({ error: 'ERR_API_TOKEN_INVALID' });
  });

  it('an expired token answers as a wrong one', async () => {
    const { token, apiToken } = await newToken(['groups'], { expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    expect((await renameGroups(token)).statusCode).toBe(202);
    await t.ctx.db
      .updateTable('apiTokens')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', apiToken.id)
      .execute();
    const res = await renameGroups(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'ERR_API_TOKEN_INVALID' });
  });

  it('a revoked token answers 401 from its next call and stays in the list, marked revoked', async () => {
    const { token, apiToken } = await newToken(['groups']);
    expect((await renameGroups(token)).statusCode).toBe(202);
    const revoked = await t.request({ method: 'DELETE', url: `/api/api-tokens/${apiToken.id}`, token: t.adminToken });
    expect(revoked.statusCode).toBe(200);
    const revokedAt = revoked.json<TApiToken>().revokedAt;
    expect(revokedAt).not.toBeNull();
    const res = await renameGroups(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'ERR_API_TOKEN_INVALID' });
    // Revoking again changes nothing; the record keeps the first time.
    expect((await t.request({ method: 'DELETE', url: `/api/api-tokens/${apiToken.id}`, token: t.adminToken })).json<TApiToken>().revokedAt).toBe(revokedAt);
    expect((await listTokens()).find((x) => x.id === apiToken.id)).toMatchObject({ revokedAt, name: apiToken.name });
    expect((await t.request({ method: 'DELETE', url: '/api/api-tokens/999999', token: t.adminToken })).json()).toMatchObject({ error: 'ERR_NO_API_TOKEN_FOUND' });
  });

  it('record their last use, written at most once a minute', async () => {
    const { token, apiToken } = await newToken(['groups']);
    expect((await listTokens()).find((x) => x.id === apiToken.id)?.lastUsedAt).toBeNull();
    const before = new Date().toISOString();
    expect((await renameGroups(token)).statusCode).toBe(202);
    const first = (await listTokens()).find((x) => x.id === apiToken.id)?.lastUsedAt ?? '';
    expect(first >= before).toBe(true);
    expect((await renameGroups(token)).statusCode).toBe(202);
    expect((await storedRow(apiToken.id)).lastUsedAt).toBe(first);
    // A use recorded more than a minute ago is written again.
    const old = new Date(Date.now() - 120_000).toISOString();
    await t.ctx.db.updateTable('apiTokens').set({ lastUsedAt: old }).where('id', '=', apiToken.id).execute();
    expect((await renameGroups(token)).statusCode).toBe(202);
    expect(((await storedRow(apiToken.id)).lastUsedAt ?? '') > first).toBe(true);
  });

  it('are managed by admins only; a named token cannot manage tokens', async () => {
    const plain = await t.createUser();
    const { token, apiToken } = await newToken(['groups', 'settings']);
    for (const caller of [plain.token, token]) {
      const expected = caller === token ? 401 : 403;
      expect((await t.request({ method: 'GET', url: '/api/api-tokens', token: caller })).statusCode).toBe(expected);
      expect((await createToken({ name: 'Minha', permissions: ['groups'] }, caller)).statusCode).toBe(expected);
      expect((await t.request({ method: 'DELETE', url: `/api/api-tokens/${apiToken.id}`, token: caller })).statusCode).toBe(expected);
    }
    expect((await createToken({ name: 'Minha', permissions: ['groups'] }, plain.token)).json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect((await storedRow(apiToken.id)).revokedAt).toBeNull();
  });

  it('refuses a bad request with 400 and its field, and makes nothing', async () => {
    const count = (await listTokens()).length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '', permissions: ['groups'] }, 'name', 'REQUIRED'],
      [{ name: 'x'.repeat(51), permissions: ['groups'] }, 'name', 'TOO_LONG'],
      [{ permissions: ['groups'] }, 'name', 'REQUIRED'],
      [{ name: 'Sem poderes', permissions: [] }, 'permissions', 'REQUIRED'],
      [{ name: 'Poder inventado', permissions: ['everything'] }, 'permissions.0', 'INVALID'],
      [{ name: 'Texto', permissions: 'groups' }, 'permissions', 'INVALID'],
      [{ name: 'Data ruim', permissions: ['groups'], expiresAt: 'amanhã' }, 'expiresAt', 'INVALID'],
      [{ name: 'Passado', permissions: ['groups'], expiresAt: new Date(Date.now() - 60_000).toISOString() }, 'expiresAt', 'INVALID'],
    ];
    for (const [payload, field, code] of cases) {
      const res = await createToken(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json<{ error: string; fields: Record<string, string> }>()).toMatchObject({ error: 'ERR_VALIDATION', fields: { [field]: code } });
    }
    expect((await listTokens()).length).toBe(count);
  });
});
