import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TQueue, TUser } from '@zapdesk/shared/schemas';
import { ADMIN, createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let adminId: number;
/** A plain user shared by the read-only tests. */
let agent: { user: TUser; token: string; password: string };
let sales: TQueue;
let support: TQueue;

beforeAll(async () => {
  t = await createTestApp();
  adminId = (await t.login(ADMIN.email, ADMIN.password)).user.id;
  sales = await t.createQueue({ name: 'Sales', color: '#B80000' });
  support = await t.createQueue({ name: 'Support', color: '#008B02' });
  agent = await t.createUser({ name: 'Shared Agent', email: 'shared.agent@test.local' });
});
afterAll(async () => {
  await t.close();
});

async function getUser(id: number, token = t.adminToken): Promise<TUser> {
  const res = await t.request({ method: 'GET', url: `/api/users/${id}`, token });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function countByEmail(email: string): Promise<number> {
  return (await t.request({ method: 'GET', url: `/api/users?searchParam=${encodeURIComponent(email)}`, token: t.adminToken })).json().count;
}

function postUser(payload: Record<string, unknown>, token = t.adminToken) {
  return t.request({ method: 'POST', url: '/api/users', token, payload });
}

function putUser(id: number, payload: Record<string, unknown>, token = t.adminToken) {
  return t.request({ method: 'PUT', url: `/api/users/${id}`, token, payload });
}

describe('GET /api/users', () => {
  it('lets any logged-in user list users, without password data', async () => {
    const res = await t.request({ method: 'GET', url: '/api/users', token: agent.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ count: expect.any(Number), hasMore: false });
    const emails = body.users.map((u: TUser) => u.email);
    expect(emails).toEqual(expect.arrayContaining([ADMIN.email, agent.user.email]));
    for (const user of body.users) {
      expect(user).not.toHaveProperty('passwordHash');
      expect(user).not.toHaveProperty('tokenVersion');
    }
  });

  it('answers 401 without a token', async () => {
    const res = await t.request({ method: 'GET', url: '/api/users' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
  });

  it('searches by name and by email, case-insensitively', async () => {
    const { user } = await t.createUser({ name: 'Marguerite Duras', email: 'writer.md@novels.example' });
    for (const term of ['marguerite', 'DURAS', 'guerite d', 'WRITER.MD', 'novels.EXAMPLE']) {
      const res = await t.request({ method: 'GET', url: `/api/users?searchParam=${encodeURIComponent(term)}`, token: agent.token });
      expect(res.statusCode).toBe(200);
      expect(res.json(), term).toMatchObject({ count: 1, hasMore: false, users: [{ id: user.id }] });
    }
    // Accented capitals too, on both databases: 'élodie' finds 'ÉLODIE', and so does 'elodie'.
    const { user: accented } = await t.createUser({ name: 'ÉLODIE Ñúñez', email: 'elodie.nunez@test.local' });
    for (const term of ['élodie', 'ELODIE', 'elodie ñúñez', 'nunez']) {
      const res = await t.request({ method: 'GET', url: `/api/users?searchParam=${encodeURIComponent(term)}`, token: agent.token });
      expect(res.json(), term).toMatchObject({ count: 1, users: [{ id: accented.id }] });
    }
    const none = await t.request({ method: 'GET', url: '/api/users?searchParam=nobody-matches-this', token: agent.token });
    expect(none.json()).toEqual({ users: [], count: 0, hasMore: false });
  });

  it('pages 20 users at a time, sorted by name, with count and hasMore', async () => {
    const names = Array.from({ length: 21 }, (_, i) => `Pager ${String(i).padStart(2, '0')}`);
    // Created out of order: the list sorts them.
    const created = await Promise.all([...names].reverse().map((name, i) => postUser({ name, email: `pager${i}@paging.example`, password: 'pass-1234' })));
    expect(created.every((r) => r.statusCode === 201)).toBe(true);

    const page1 = (await t.request({ method: 'GET', url: '/api/users?searchParam=pager&pageNumber=1', token: agent.token })).json();
    expect(page1).toMatchObject({ count: 21, hasMore: true });
    expect(page1.users.map((u: TUser) => u.name)).toEqual(names.slice(0, 20));
    const page2 = (await t.request({ method: 'GET', url: '/api/users?searchParam=pager&pageNumber=2', token: agent.token })).json();
    expect(page2).toMatchObject({ count: 21, hasMore: false });
    expect(page2.users.map((u: TUser) => u.name)).toEqual(names.slice(20));
    const page3 = (await t.request({ method: 'GET', url: '/api/users?searchParam=pager&pageNumber=3', token: agent.token })).json();
    expect(page3).toEqual({ users: [], count: 21, hasMore: false });
  });

  it.each([
    ['pageNumber=0', 'pageNumber', 'INVALID'],
    ['pageNumber=abc', 'pageNumber', 'INVALID'],
    ['pageNumber=1.5', 'pageNumber', 'INVALID'],
    [`searchParam=${'x'.repeat(101)}`, 'searchParam', 'TOO_LONG'],
    ['searchParam=a%00b', 'searchParam', 'INVALID'],
  ])('refuses the query %s with 400 ERR_VALIDATION', async (query, field, code) => {
    const res = await t.request({ method: 'GET', url: `/api/users?${query}`, token: agent.token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { [field]: code } });
  });
});

describe('GET /api/users/:id', () => {
  it('shows any user to an admin, with queues and connection', async () => {
    const user = await getUser(agent.user.id);
    expect(user).toMatchObject({ id: agent.user.id, email: agent.user.email, profile: 'user', queues: [], whatsappId: null, whatsapp: null });
  });

  it('shows a plain user themself, and refuses them another user with 403 ERR_NO_PERMISSION', async () => {
    expect((await getUser(agent.user.id, agent.token)).email).toBe(agent.user.email);
    const other = await t.request({ method: 'GET', url: `/api/users/${adminId}`, token: agent.token });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    // An unknown id is refused the same way: a plain user learns nothing about which ids exist.
    const unknown = await t.request({ method: 'GET', url: '/api/users/999999', token: agent.token });
    expect(unknown.statusCode).toBe(403);
  });

  it('answers 404 ERR_NO_USER_FOUND to an admin asking for an unknown id', async () => {
    const res = await t.request({ method: 'GET', url: '/api/users/999999', token: t.adminToken });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
  });

  it.each(['abc', '0', '-1', '1.5', '2147483648'])('answers 400 ERR_VALIDATION to the id %s', async (id) => {
    const res = await t.request({ method: 'GET', url: `/api/users/${id}`, token: t.adminToken });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { id: 'INVALID' } });
  });

  it('answers 401 without a token', async () => {
    const res = await t.request({ method: 'GET', url: `/api/users/${agent.user.id}` });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/users', () => {
  it('creates a user with queues and default connection, returned with names and colours', async () => {
    const whatsapp = await t.insertWhatsapp({ name: 'Main line' });
    const res = await postUser({ name: 'Queue Agent', email: 'Queue.Agent@Test.local', password: 'pass-1234', queueIds: [support.id, sales.id], whatsappId: whatsapp.id });
    expect(res.statusCode).toBe(201);
    const user = res.json();
    expect(user).toMatchObject({
      name: 'Queue Agent',
      email: 'queue.agent@test.local',
      profile: 'user',
      whatsappId: whatsapp.id,
      whatsapp: { id: whatsapp.id, name: 'Main line' },
      queues: [
        { id: sales.id, name: 'Sales', color: '#B80000' },
        { id: support.id, name: 'Support', color: '#008B02' },
      ],
    });
    expect(await getUser(user.id)).toMatchObject({ queues: [{ id: sales.id }, { id: support.id }], whatsapp: { name: 'Main line' } });
    expect((await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'queue.agent@test.local', password: 'pass-1234' } })).statusCode).toBe(200);
  });

  it('creates an admin when asked by an admin', async () => {
    const res = await postUser({ name: 'Second Admin', email: 'admin2@test.local', password: 'pass-1234', profile: 'admin' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ profile: 'admin' });
    const { token } = await t.login('admin2@test.local', 'pass-1234');
    expect((await t.request({ method: 'GET', url: '/api/settings', token })).statusCode).toBe(200);
    // Leave one admin, as the last-admin test expects.
    expect((await t.request({ method: 'DELETE', url: `/api/users/${res.json().id}`, token: t.adminToken })).statusCode).toBe(204);
  });

  it('refuses a plain user with 403 ERR_NO_PERMISSION, before looking at the body', async () => {
    for (const payload of [{ name: 'Sneaky', email: 'sneaky@test.local', password: 'pass-1234', profile: 'admin' }, {}]) {
      const res = await postUser(payload, agent.token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    }
    expect(await countByEmail('sneaky@test.local')).toBe(0);
  });

  it('answers 401 without a token', async () => {
    const res = await t.request({ method: 'POST', url: '/api/users', payload: { name: 'Nobody', email: 'nobody@test.local', password: 'pass-1234' } });
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['name too short', { name: 'A' }, 'name', 'TOO_SHORT'],
    ['name too long', { name: 'N'.repeat(51) }, 'name', 'TOO_LONG'],
    ['name empty', { name: '' }, 'name', 'REQUIRED'],
    ['name missing', { name: undefined }, 'name', 'REQUIRED'],
    ['name with a NUL character', { name: 'Ann\u0000e' }, 'name', 'INVALID'],
    ['email invalid', { email: 'not-an-email' }, 'email', 'INVALID_EMAIL'],
    ['email empty', { email: '' }, 'email', 'REQUIRED'],
    ['email missing', { email: undefined }, 'email', 'REQUIRED'],
    ['email too long', { email: `a@${`${'d'.repeat(30)}.`.repeat(4)}com` }, 'email', 'TOO_LONG'],
    ['password too short', { password: '1234' }, 'password', 'TOO_SHORT'],
    ['password too long', { password: 'p'.repeat(129) }, 'password', 'TOO_LONG'],
    ['password missing', { password: undefined }, 'password', 'REQUIRED'],
    ['profile unknown', { profile: 'root' }, 'profile', 'INVALID'],
    ['queueIds not a list', { queueIds: 'all' }, 'queueIds', 'INVALID'],
    ['queueIds with a non-id', { queueIds: [0] }, 'queueIds.0', 'INVALID'],
    ['queueIds with an id beyond 32 bits', { queueIds: [2147483648] }, 'queueIds.0', 'INVALID'],
    ['whatsappId not a number', { whatsappId: 'main' }, 'whatsappId', 'INVALID'],
    ['whatsappId beyond 32 bits', { whatsappId: 2147483648 }, 'whatsappId', 'INVALID'],
  ])('refuses %s with 400 ERR_VALIDATION and creates nothing', async (_label, override, field, code) => {
    const email = `invalid${Math.random().toString(36).slice(2)}@test.local`;
    const res = await postUser({ name: 'Valid Name', email, password: 'pass-1234', ...override });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { [field]: code } });
    expect(await countByEmail(email)).toBe(0);
  });

  it('refuses an email already used, whatever its case, with 409 ERR_EMAIL_ALREADY_EXISTS', async () => {
    const res = await postUser({ name: 'Copy Cat', email: agent.user.email.toUpperCase(), password: 'pass-1234' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'ERR_EMAIL_ALREADY_EXISTS', message: 'A user with this email already exists.' });
    expect(await countByEmail(agent.user.email)).toBe(1);
  });

  it('refuses unknown queueIds with 404 ERR_NO_QUEUE_FOUND and creates nothing', async () => {
    const res = await postUser({ name: 'Lost Agent', email: 'lost.queue@test.local', password: 'pass-1234', queueIds: [sales.id, 999999] });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'ERR_NO_QUEUE_FOUND' });
    expect(await countByEmail('lost.queue@test.local')).toBe(0);
  });

  it('refuses an unknown whatsappId with 404 ERR_NO_WAPP_FOUND and creates nothing', async () => {
    const res = await postUser({ name: 'Lost Agent', email: 'lost.wapp@test.local', password: 'pass-1234', whatsappId: 999999 });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'ERR_NO_WAPP_FOUND' });
    expect(await countByEmail('lost.wapp@test.local')).toBe(0);
  });
});

describe('PUT /api/users/:id', () => {
  it('refuses to demote the last admin with 400 ERR_LAST_ADMIN', async () => {
    const admins: number[] = [];
    for (let page = 1, more = true; more; page += 1) {
      const body = (await t.request({ method: 'GET', url: `/api/users?pageNumber=${page}`, token: t.adminToken })).json();
      admins.push(...body.users.filter((u: TUser) => u.profile === 'admin').map((u: TUser) => u.id));
      more = body.hasMore;
    }
    expect(admins).toEqual([adminId]);

    const res = await putUser(adminId, { name: 'Admin', email: ADMIN.email, profile: 'user' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_LAST_ADMIN' });
    expect(await getUser(adminId)).toMatchObject({ profile: 'admin' });
  });

  it('lets an admin demote an admin who is not the last one', async () => {
    const { user } = await t.createUser({ profile: 'admin' });
    const res = await putUser(user.id, { name: user.name, email: user.email, profile: 'user' });
    expect(res.statusCode).toBe(200);
    expect(await getUser(user.id)).toMatchObject({ profile: 'user' });
  });

  it("lets an admin change a user's profile and queues; the new rights apply at once", async () => {
    const { user, token } = await t.createUser({ queueIds: [sales.id] });
    expect((await t.request({ method: 'GET', url: '/api/settings', token })).statusCode).toBe(403);

    const res = await putUser(user.id, { name: user.name, email: user.email, profile: 'admin', queueIds: [support.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ profile: 'admin', queues: [{ id: support.id, name: 'Support', color: '#008B02' }] });
    expect(await getUser(user.id)).toMatchObject({ profile: 'admin', queues: [{ id: support.id }] });
    // The same token now carries admin rights: rights are read from the user, not the token.
    expect((await t.request({ method: 'GET', url: '/api/settings', token })).statusCode).toBe(200);

    const back = await putUser(user.id, { name: user.name, email: user.email, profile: 'user', queueIds: [] });
    expect(back.json()).toMatchObject({ profile: 'user', queues: [] });
    expect((await t.request({ method: 'GET', url: '/api/settings', token })).statusCode).toBe(403);
  });

  it('keeps profile, queues and connection when an admin leaves them out, and clears the connection with null', async () => {
    const whatsapp = await t.insertWhatsapp();
    const created = (await postUser({ name: 'Kept Agent', email: 'kept@test.local', password: 'pass-1234', queueIds: [sales.id], whatsappId: whatsapp.id })).json();

    const renamed = await putUser(created.id, { name: 'Kept Agent Renamed', email: 'kept@test.local' });
    expect(renamed.statusCode).toBe(200);
    expect(await getUser(created.id)).toMatchObject({ name: 'Kept Agent Renamed', profile: 'user', queues: [{ id: sales.id }], whatsappId: whatsapp.id });

    const cleared = await putUser(created.id, { name: 'Kept Agent Renamed', email: 'kept@test.local', whatsappId: null });
    expect(cleared.statusCode).toBe(200);
    expect(await getUser(created.id)).toMatchObject({ whatsappId: null, whatsapp: null, queues: [{ id: sales.id }] });
  });

  it('lets a user edit their own name, email and password', async () => {
    const { user, token, password } = await t.createUser();
    const res = await putUser(user.id, { name: 'Self Edited', email: 'self.edited@test.local', password: 'new-pass-1', currentPassword: password }, token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Self Edited', email: 'self.edited@test.local', profile: 'user' });
    expect(await getUser(user.id)).toMatchObject({ name: 'Self Edited', email: 'self.edited@test.local' });

    const oldLogin = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'self.edited@test.local', password: 'new-pass-1' } });
    expect(newLogin.statusCode).toBe(200);
  });

  it('changes one’s own password only with the current one: ERR_INVALID_CREDENTIALS otherwise, and nothing changes', async () => {
    for (const profile of ['user', 'admin'] as const) {
      const { user, token, password } = await t.createUser({ profile });
      for (const currentPassword of [undefined, '', 'not-my-password']) {
        const res = await putUser(user.id, { name: 'Taken Over', email: user.email, password: 'attacker-pass', ...(currentPassword === undefined ? {} : { currentPassword }) }, token);
        expect(res.statusCode, `${profile} ${String(currentPassword)}`).toBe(401);
        expect(res.json()).toMatchObject({ error: 'ERR_INVALID_CREDENTIALS', fields: { currentPassword: 'INVALID' } });
      }
      expect(await getUser(user.id)).toMatchObject({ name: user.name });
      expect((await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } })).statusCode).toBe(200);
      expect((await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'attacker-pass' } })).statusCode).toBe(401);
      // The session still works: a wrong current password is not a sign-out.
      expect((await t.request({ method: 'GET', url: `/api/users/${user.id}`, token })).statusCode).toBe(200);
      // Name and e-mail alone need no password.
      expect((await putUser(user.id, { name: 'Just Renamed', email: user.email }, token)).statusCode).toBe(200);
    }
  });

  it("lets an admin set another user's password without knowing the old one", async () => {
    const { user } = await t.createUser();
    const res = await putUser(user.id, { name: user.name, email: user.email, password: 'set-by-admin' });
    expect(res.statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'set-by-admin' } })).statusCode).toBe(200);
  });

  it('lets a user resend their own unchanged profile and queues', async () => {
    const { user, token } = await t.createUser({ queueIds: [sales.id] });
    const res = await putUser(user.id, { name: 'Same Rights', email: user.email, profile: 'user', queueIds: [sales.id], whatsappId: null }, token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Same Rights', profile: 'user', queues: [{ id: sales.id }] });
  });

  it.each([
    ['another profile', () => ({ profile: 'admin' })],
    ['no queues', () => ({ queueIds: [] })],
    ['more queues', () => ({ queueIds: [sales.id, support.id] })],
    ['a connection', (whatsappId: number) => ({ whatsappId })],
  ])('refuses a user sending %s with 403 ERR_NO_PERMISSION, and changes nothing', async (_label, override) => {
    const whatsapp = await t.insertWhatsapp();
    const { user, token } = await t.createUser({ queueIds: [sales.id] });
    const res = await putUser(user.id, { name: 'Should Not Stick', email: user.email, ...override(whatsapp.id) }, token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect(await getUser(user.id)).toMatchObject({ name: user.name, profile: 'user', queues: [{ id: sales.id }], whatsappId: null });
  });

  it('refuses a user editing someone else with 403 ERR_NO_PERMISSION, and changes nothing', async () => {
    const { user: other } = await t.createUser({ name: 'Other Person' });
    const res = await putUser(other.id, { name: 'Hijacked', email: other.email, password: 'hijacked1' }, agent.token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect(await getUser(other.id)).toMatchObject({ name: 'Other Person' });
    const hijack = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: other.email, password: 'hijacked1' } });
    expect(hijack.statusCode).toBe(401);
  });

  it('keeps the old password when the password is empty or left out', async () => {
    const { user, password } = await t.createUser();
    expect((await putUser(user.id, { name: 'Empty Pass', email: user.email, password: '' })).statusCode).toBe(200);
    expect((await putUser(user.id, { name: 'No Pass', email: user.email })).statusCode).toBe(200);
    const res = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ name: 'No Pass' });
  });

  it("refuses another user's email with 409 ERR_EMAIL_ALREADY_EXISTS, and changes nothing", async () => {
    const { user } = await t.createUser({ name: 'Email Keeper' });
    const res = await putUser(user.id, { name: 'Email Thief', email: agent.user.email.toUpperCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'ERR_EMAIL_ALREADY_EXISTS' });
    expect(await getUser(user.id)).toMatchObject({ name: 'Email Keeper', email: user.email });
  });

  it('refuses unknown queues and connections with 404, and changes nothing', async () => {
    const { user } = await t.createUser({ name: 'Ref Keeper', queueIds: [sales.id] });
    const queue = await putUser(user.id, { name: 'Changed', email: user.email, queueIds: [999999] });
    expect(queue.statusCode).toBe(404);
    expect(queue.json()).toMatchObject({ error: 'ERR_NO_QUEUE_FOUND' });
    const wapp = await putUser(user.id, { name: 'Changed', email: user.email, whatsappId: 999999 });
    expect(wapp.statusCode).toBe(404);
    expect(wapp.json()).toMatchObject({ error: 'ERR_NO_WAPP_FOUND' });
    expect(await getUser(user.id)).toMatchObject({ name: 'Ref Keeper', queues: [{ id: sales.id }], whatsappId: null });
  });

  it('answers 404 ERR_NO_USER_FOUND to an admin editing an unknown id', async () => {
    const res = await putUser(999999, { name: 'Ghost', email: 'ghost@test.local' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'ERR_NO_USER_FOUND' });
  });

  it.each([
    ['name too short', { name: 'A' }, 'name', 'TOO_SHORT'],
    ['name too long', { name: 'N'.repeat(51) }, 'name', 'TOO_LONG'],
    ['name missing', { name: undefined }, 'name', 'REQUIRED'],
    ['email invalid', { email: 'nope' }, 'email', 'INVALID_EMAIL'],
    ['email missing', { email: undefined }, 'email', 'REQUIRED'],
    ['password too short', { password: '1234' }, 'password', 'TOO_SHORT'],
    ['password too long', { password: 'p'.repeat(129) }, 'password', 'TOO_LONG'],
    ['profile unknown', { profile: 'owner' }, 'profile', 'INVALID'],
    ['queueIds with a non-id', { queueIds: ['x'] }, 'queueIds.0', 'INVALID'],
  ])('refuses %s with 400 ERR_VALIDATION, and changes nothing', async (_label, override, field, code) => {
    const res = await putUser(agent.user.id, { name: 'Valid Name', email: agent.user.email, ...override });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { [field]: code } });
    expect(await getUser(agent.user.id)).toMatchObject({ name: 'Shared Agent' });
  });

  it('answers 401 without a token', async () => {
    const res = await t.request({ method: 'PUT', url: `/api/users/${agent.user.id}`, payload: { name: 'Anon', email: agent.user.email } });
    expect(res.statusCode).toBe(401);
  });
});

describe('DELETE /api/users/:id', () => {
  it('lets an admin delete a user: gone from the API, and unable to log in', async () => {
    const { user, password } = await t.createUser({ queueIds: [sales.id] });
    const res = await t.request({ method: 'DELETE', url: `/api/users/${user.id}`, token: t.adminToken });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    const gone = await t.request({ method: 'GET', url: `/api/users/${user.id}`, token: t.adminToken });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ error: 'ERR_NO_USER_FOUND' });
    expect(await countByEmail(user.email)).toBe(0);
    const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } });
    expect(login.statusCode).toBe(401);
  });

  it('refuses a plain user with 403 ERR_NO_PERMISSION, and the target stays', async () => {
    const { user } = await t.createUser();
    const res = await t.request({ method: 'DELETE', url: `/api/users/${user.id}`, token: agent.token });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect((await getUser(user.id)).id).toBe(user.id);
  });

  it('refuses an admin deleting themself with 400 ERR_CANNOT_DELETE_SELF', async () => {
    const res = await t.request({ method: 'DELETE', url: `/api/users/${adminId}`, token: t.adminToken });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_CANNOT_DELETE_SELF' });
    expect((await getUser(adminId)).id).toBe(adminId);
  });

  it('answers 404 ERR_NO_USER_FOUND to an unknown id and 400 to a non-numeric one', async () => {
    const unknown = await t.request({ method: 'DELETE', url: '/api/users/999999', token: t.adminToken });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'ERR_NO_USER_FOUND' });
    const invalid = await t.request({ method: 'DELETE', url: '/api/users/abc', token: t.adminToken });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });

  it('answers 401 without a token', async () => {
    const res = await t.request({ method: 'DELETE', url: `/api/users/${agent.user.id}` });
    expect(res.statusCode).toBe(401);
    expect((await getUser(agent.user.id)).id).toBe(agent.user.id);
  });
});
