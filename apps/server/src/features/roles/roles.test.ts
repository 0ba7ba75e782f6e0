/**
 * Roles as admins use them: the built-in agent role of a new install, narrowing it for every
 * plain user at once, custom roles given to a user, what a role changes beyond refusals (the
 * 'All' switch, the dashboard, the settings), and the refusals of the roles API itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDashboard, TTicket } from '@zapdesk/shared/messaging';
import { AGENT_DEFAULT_PERMISSIONS, PERMISSIONS, type Permission } from '@zapdesk/shared/permissions';
import type { TRole } from '@zapdesk/shared/roles';

import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let connectionId: number;
let n = 0;

async function roles(): Promise<TRole[]> {
  return (await t.request({ method: 'GET', url: '/api/roles', token: t.adminToken })).json<{ roles: TRole[] }>().roles;
}

async function builtIn(): Promise<TRole> {
  const found = (await roles()).find((r) => r.key === 'agent');
  if (!found) throw new Error('no built-in role');
  return found;
}

async function newRole(permissions: Permission[], name = `Papel ${(n += 1)}`): Promise<TRole> {
  const res = await t.request({ method: 'POST', url: '/api/roles', token: t.adminToken, payload: { name, permissions } });
  expect(res.statusCode).toBe(201);
  return res.json<TRole>();
}

async function giveRole(user: { id: number; name: string; email: string }, roleId: number | null) {
  return t.request({ method: 'PUT', url: `/api/users/${user.id}`, token: t.adminToken, payload: { name: user.name, email: user.email, roleId } });
}

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  const created = await t.request({ method: 'POST', url: '/api/whatsapp', token: t.adminToken, payload: { name: 'Main', channel: 'simulator', isDefault: true } });
  connectionId = created.json<{ id: number }>().id;
  await t.request({ method: 'POST', url: `/api/simulator/${connectionId}/scan`, token: t.adminToken });
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('roles', () => {
  it('a new install has the built-in agent role with what the spec lets a plain user do, and sign-in tells the web app', async () => {
    const role = await builtIn();
    expect(role).toMatchObject({ name: 'Atendente', key: 'agent', twoFactorRequired: false, permissions: [...AGENT_DEFAULT_PERMISSIONS] });
    const { user, password } = await t.createUser();
    expect(user).toMatchObject({ roleId: null, role: { id: role.id, key: 'agent' } });
    const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } });
    expect(login.json<{ permissions: string[] }>().permissions).toEqual([...AGENT_DEFAULT_PERMISSIONS]);
    const adminLogin = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@test.local', password: 'admin-pass' } });
    expect(adminLogin.json<{ permissions: string[]; user: { role: unknown } }>()).toMatchObject({ permissions: [...PERMISSIONS], user: { role: null } });
  });

  it('narrowing the built-in role takes a power from every plain user at once, on their next call', async () => {
    const { token } = await t.createUser();
    const sms = { numbers: '5511988887777', text: 'Oi' };
    expect((await t.request({ method: 'POST', url: '/api/sms', token, payload: sms })).statusCode).toBe(400); // allowed; no sender set
    const role = await builtIn();
    const narrowed = await t.request({ method: 'PUT', url: `/api/roles/${role.id}`, token: t.adminToken, payload: { name: role.name, permissions: role.permissions.filter((p) => p !== 'phone') } });
    expect(narrowed.statusCode).toBe(200);
    const refused = await t.request({ method: 'POST', url: '/api/sms', token, payload: sms });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    // Admins keep every power, whatever the roles say.
    expect((await t.request({ method: 'POST', url: '/api/sms', token: t.adminToken, payload: sms })).statusCode).toBe(400);
    await t.request({ method: 'PUT', url: `/api/roles/${role.id}`, token: t.adminToken, payload: { name: role.name, permissions: role.permissions } });
  });

  it('the built-in role keeps its name and cannot be deleted; a role in use cannot be deleted; names are unique', async () => {
    const role = await builtIn();
    const renamed = await t.request({ method: 'PUT', url: `/api/roles/${role.id}`, token: t.adminToken, payload: { name: 'Outro nome', permissions: role.permissions } });
    expect(renamed.json()).toMatchObject({ error: 'ERR_ROLE_BUILT_IN' });
    expect((await t.request({ method: 'DELETE', url: `/api/roles/${role.id}`, token: t.adminToken })).json()).toMatchObject({ error: 'ERR_ROLE_BUILT_IN' });

    const custom = await newRole(['groups'], 'Supervisores');
    const again = await t.request({ method: 'POST', url: '/api/roles', token: t.adminToken, payload: { name: 'supervisores', permissions: [] } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'ERR_ROLE_NAME_TAKEN' });
    const { user } = await t.createUser();
    expect((await giveRole(user, custom.id)).json()).toMatchObject({ roleId: custom.id, role: { id: custom.id, name: 'Supervisores', key: null } });
    const inUse = await t.request({ method: 'DELETE', url: `/api/roles/${custom.id}`, token: t.adminToken });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toMatchObject({ error: 'ERR_ROLE_IN_USE' });
    expect((await roles()).find((r) => r.id === custom.id)?.userCount).toBe(1);
    // Back to the built-in role (by its id or null alike): then the role can go.
    expect((await giveRole(user, role.id)).json()).toMatchObject({ roleId: null, role: { key: 'agent' } });
    expect((await t.request({ method: 'DELETE', url: `/api/roles/${custom.id}`, token: t.adminToken })).statusCode).toBe(204);
  });

  it('refuses bad roles with 400 and an ERR_ code, and nothing is written', async () => {
    const before = (await roles()).length;
    for (const payload of [
      { name: 'Ok name', permissions: ['fly'] },
      { name: 'Ok name', permissions: ['groups', 'groups'] },
      { name: '', permissions: [] },
      { name: 'Ok name' },
      { name: 'Ok name', permissions: [], twoFactorRequired: 'yes' },
    ]) {
      const res = await t.request({ method: 'POST', url: '/api/roles', token: t.adminToken, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: string }>().error).toMatch(/^ERR_/);
    }
    expect((await t.request({ method: 'PUT', url: '/api/roles/999999', token: t.adminToken, payload: { name: 'Nada', permissions: [] } })).json()).toMatchObject({ error: 'ERR_NO_ROLE_FOUND' });
    const { user } = await t.createUser();
    expect((await giveRole(user, 999999)).json()).toMatchObject({ error: 'ERR_NO_ROLE_FOUND' });
    expect((await roles()).length).toBe(before);
  });

  it('stores and shows whether a role asks for a second factor', async () => {
    const role = await newRole([], `Com 2FA ${(n += 1)}`);
    expect(role.twoFactorRequired).toBe(false);
    const changed = await t.request({ method: 'PUT', url: `/api/roles/${role.id}`, token: t.adminToken, payload: { name: role.name, permissions: ['groups'], twoFactorRequired: true } });
    expect(changed.json()).toMatchObject({ twoFactorRequired: true, permissions: ['groups'] });
  });

  it('a plain user cannot give themselves a role', async () => {
    const custom = await newRole([...PERMISSIONS]);
    const { user, token } = await t.createUser();
    const res = await t.request({ method: 'PUT', url: `/api/users/${user.id}`, token, payload: { name: user.name, email: user.email, roleId: custom.id } });
    expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
  });

  it("allQueues gives a plain user the 'All' switch: every queue's tickets, as an admin's", async () => {
    const queue = (await t.createQueue({ name: `Outra ${(n += 1)}` })).id;
    const mine = (await t.createQueue({ name: `Minha ${(n += 1)}` })).id;
    await t.request({ method: 'PUT', url: `/api/whatsapp/${connectionId}`, token: t.adminToken, payload: { name: 'Main', channel: 'simulator', isDefault: true, queueIds: [queue] } });
    const waiting = await t.inboundTicket(connectionId, 'oi');
    expect(waiting.queueId).toBe(queue);
    const seesAll = await t.createUser({ queueIds: [mine] });
    const plain = await t.createUser({ queueIds: [mine] });
    await giveRole(seesAll.user, (await newRole(['allQueues'])).id);
    const list = async (token: string) => (await t.request({ method: 'GET', url: `/api/tickets?showAll=true&status=pending`, token })).json<{ tickets: TTicket[] }>().tickets.map((x) => x.id);
    expect(await list(seesAll.token)).toContain(waiting.id);
    expect(await list(plain.token)).not.toContain(waiting.id);
    expect((await t.request({ method: 'GET', url: `/api/tickets/${waiting.id}`, token: seesAll.token })).statusCode).toBe(200);
    // A ticket one may not see answers as one that does not exist.
    expect((await t.request({ method: 'GET', url: `/api/tickets/${waiting.id}`, token: plain.token })).json()).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' });
  });

  it("dashboardAll shows everyone's figures; without it, one's own queues'", async () => {
    const all = await t.createUser();
    const own = await t.createUser();
    await giveRole(all.user, (await newRole(['dashboardAll'])).id);
    const counters = async (token: string) => (await t.request({ method: 'GET', url: '/api/dashboard', token })).json<TDashboard>().counters;
    const admin = await counters(t.adminToken);
    expect(admin.pending).toBeGreaterThan(0);
    expect(await counters(all.token)).toEqual(admin);
    expect(await counters(own.token)).toEqual({ open: 0, pending: 0, closed: 0 });
  });

  it('the settings permission opens the settings, but the userApiToken stays for admins', async () => {
    const { user, token } = await t.createUser();
    await giveRole(user, (await newRole(['settings'])).id);
    const keys = (await t.request({ method: 'GET', url: '/api/settings', token })).json<{ key: string }[]>().map((s) => s.key);
    expect(keys).toContain('userCreation');
    expect(keys).not.toContain('userApiToken');
    expect((await t.request({ method: 'POST', url: '/api/settings/userApiToken/regenerate', token })).statusCode).toBe(403);
  });
});
