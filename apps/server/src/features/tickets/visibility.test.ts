/**
 * The ticket-visibility rule, one description in three uses: the SQL of lists and counts, the
 * predicate for one ticket (server and web app) and the socket audiences. A table of viewers ×
 * ticket shapes, with the 'All' switch on and off, must agree in all three, and with the rule
 * as written in decisions (own tickets always; unassigned ones of one's queues; unassigned ones
 * without a queue for anyone in a queue or an admin; admins everything with 'All').
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canSeeTicket, ticketAudiences, viewerAudiences, type TicketShape, type Viewer } from '@zapdesk/shared/visibility';
import { nowIso } from '../../core/time.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { visibleTo } from './tickets-list.repository.js';
import { canSeeTicket as serverCanSee } from './tickets.service.js';
import { findAuthUserById } from '../users/users.repository.js';

let t: TestApp;
const Q = { A: 0, B: 0 };
const viewers: Record<string, Viewer> = {};
const tickets: Record<string, TicketShape & { id: number }> = {};

/** What the rule says, written out case by case (the expectation, not the code under test). */
const expected: Record<string, { allOff: string[]; allOn?: string[] }> = {
  'agent of A': { allOff: ['free in A', 'free, no queue', 'agent A’s in A', 'agent A’s in B'] },
  'agent of A and B': { allOff: ['free in A', 'free in B', 'free, no queue', 'agent AB’s, no queue'] },
  'agent of B': { allOff: ['free in B', 'free, no queue'] },
  'user in no queue': { allOff: ['no-queue user’s in B'] },
  'admin in no queue': { allOff: ['free, no queue', 'admin’s in A'], allOn: ['*'] },
  'admin of A': { allOff: ['free in A', 'free, no queue', 'admin of A’s in B'], allOn: ['*'] },
};

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR: 'on' });
  Q.A = (await t.createQueue({ name: 'Fila A' })).id;
  Q.B = (await t.createQueue({ name: 'Fila B' })).id;
  const users: [string, 'user' | 'admin', number[]][] = [
    ['agent of A', 'user', [Q.A]],
    ['agent of A and B', 'user', [Q.A, Q.B]],
    ['agent of B', 'user', [Q.B]],
    ['user in no queue', 'user', []],
    ['admin in no queue', 'admin', []],
    ['admin of A', 'admin', [Q.A]],
  ];
  for (const [name, profile, queueIds] of users) {
    const { user } = await t.createUser({ profile, queueIds, name: name.replace(/[^a-zA-Z ]/g, '') });
    viewers[name] = { id: user.id, admin: profile === 'admin', allQueues: profile === 'admin', queueIds };
  }
  const whatsapp = await t.insertWhatsapp();
  const id = (name: string) => viewers[name]?.id ?? 0;
  const shapes: [string, number | null, number | null][] = [
    ['free in A', null, Q.A],
    ['free in B', null, Q.B],
    ['free, no queue', null, null],
    ['agent A’s in A', id('agent of A'), Q.A],
    ['agent A’s in B', id('agent of A'), Q.B],
    ['agent AB’s, no queue', id('agent of A and B'), null],
    ['admin’s in A', id('admin in no queue'), Q.A],
    ['admin of A’s in B', id('admin of A'), Q.B],
    ['no-queue user’s in B', id('user in no queue'), Q.B],
  ];
  let n = 0;
  for (const [name, userId, queueId] of shapes) {
    const now = nowIso();
    const contact = await t.createContact({ name: `Contato ${name.replace(/[^a-zA-Z ]/g, '')}`, number: `55119300000${String((n += 1)).padStart(2, '0')}` });
    const row = await t.ctx.db
      .insertInto('tickets')
      .values({
        contactId: contact.id,
        whatsappId: whatsapp.id,
        status: userId === null ? 'pending' : 'open',
        userId,
        queueId,
        isGroup: 0,
        lastMessage: '',
        unreadMessages: 0,
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    tickets[name] = { id: row.id, userId, queueId };
  }
});
afterAll(async () => {
  await t.close();
});

describe('ticket visibility: SQL, predicate and socket audiences agree', () => {
  it('covers at least 20 viewer × ticket cases', () => {
    expect(Object.keys(viewers).length * Object.keys(tickets).length).toBeGreaterThanOrEqual(20);
  });

  for (const viewerName of Object.keys(expected)) {
    for (const all of [false, true]) {
      it(`${viewerName}, 'All' ${all ? 'on' : 'off'}`, async () => {
        const viewer = viewers[viewerName] as Viewer;
        const rule = expected[viewerName];
        const wanted = all && rule?.allOn ? Object.keys(tickets) : (rule?.allOff ?? []);
        const ids = Object.values(tickets).map((x) => x.id);
        const rows = await visibleTo(t.ctx.db.selectFrom('tickets').select('id').where('id', 'in', ids), {
          userId: viewer.id,
          admin: viewer.admin,
          allQueues: viewer.allQueues,
          showAll: all,
          queueIds: [...viewer.queueIds],
        }).execute();
        const bySql = Object.keys(tickets).filter((name) => rows.some((r) => r.id === tickets[name]?.id));
        const byPredicate = Object.keys(tickets).filter((name) => canSeeTicket(viewer, tickets[name] as TicketShape, { all }));
        expect(bySql.sort()).toEqual([...wanted].sort());
        expect(byPredicate.sort()).toEqual([...wanted].sort());
      });
    }
    it(`${viewerName}: one ticket at a time and live events, as 'All' on`, async () => {
      const viewer = viewers[viewerName] as Viewer;
      const actor = await findAuthUserById(t.ctx.db, viewer.id);
      if (!actor) throw new Error('no user');
      for (const [name, ticket] of Object.entries(tickets)) {
        const predicate = canSeeTicket(viewer, ticket, { all: true });
        expect(await serverCanSee(t.ctx, actor, ticket), `${viewerName} → ${name}`).toBe(predicate);
        const hears = ticketAudiences(ticket).some((room) => viewerAudiences(viewer).includes(room));
        expect(hears, `${viewerName} hears ${name}`).toBe(predicate);
      }
    });
  }
});
