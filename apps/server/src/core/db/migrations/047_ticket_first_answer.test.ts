/**
 * Migration 047: each ticket keeps the contact's first message (askedAt) and the inbox's first
 * answer after it (answeredAt, answeredBy). Existing tickets take them from their messages; new
 * messages keep them, in any order they are stored (an import of older history included).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openBareDatabase } from '../../../test/bare-database.js';
import type { DbHandle } from '../database.js';
import { migrateToLatest, migrateUpTo } from '../migrate.js';

let handle: DbHandle;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ handle, close: cleanup } = await openBareDatabase());
});
afterEach(async () => cleanup());

const base = Date.parse('2026-03-02T12:00:00.000Z');
/** An instant `minutes` after the tickets' creation, as the server stores it. */
const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();

type Kind = 'contact' | 'agent' | 'phone' | 'bot' | 'automatic' | 'note';

/** A connection, a contact and an agent; `ticket()` adds a (closed: one contact has one open ticket) ticket, `message()` one of its messages. */
async function fixture() {
  const db = handle.db;
  const now = at(0);
  const phone = await db
    .insertInto('whatsapps')
    .values({
      name: 'Loja',
      channel: 'simulator',
      status: 'CONNECTED',
      qrcode: '',
      isDefault: 1,
      greetingMessage: '',
      farewellMessage: '',
      leaseOwner: null,
      leaseUntil: null,
      createdAt: now,
      updatedAt: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const contact = await db
    .insertInto('contacts')
    .values({ name: 'Rita', number: '5511988887777', email: '', profilePicUrl: '', isGroup: 0, searchText: 'rita 5511988887777', createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const agent = await db
    .insertInto('users')
    .values({ name: 'Ana', email: 'ana@loja.com', passwordHash: 'x', profile: 'user', whatsappId: null, totpSecret: null, totpEnabledAt: null, totpLastStep: null, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  let provider = 0;
  const ticket = async () =>
    (
      await db
        .insertInto('tickets')
        .values({ status: 'closed', contactId: contact.id, whatsappId: phone.id, userId: agent.id, queueId: null, lastMessage: '', unreadMessages: 0, isGroup: 0, createdAt: now, updatedAt: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const message = async (ticketId: number, kind: Kind, minute: number) => {
    provider += 1;
    const own = kind !== 'contact';
    await db
      .insertInto('messages')
      .values({
        ticketId,
        whatsappId: phone.id,
        providerId: `m-${provider}`,
        contactId: own ? null : contact.id,
        body: kind,
        fromMe: own ? 1 : 0,
        fromBot: kind === 'bot' ? 1 : 0,
        automatic: kind === 'automatic' ? 1 : 0,
        isNote: kind === 'note' ? 1 : 0,
        userId: kind === 'agent' || kind === 'note' ? agent.id : null,
        read: 1,
        ack: 0,
        mediaType: null,
        mediaPath: null,
        quotedMsgId: null,
        isDeleted: 0,
        createdAt: at(minute),
        updatedAt: at(minute),
      })
      .execute();
  };
  const moments = async (id: number) => db.selectFrom('tickets').select(['askedAt', 'answeredAt', 'answeredBy']).where('id', '=', id).executeTakeFirstOrThrow();
  return { agent: agent.id, ticket, message, moments };
}

describe('047_ticket_first_answer', () => {
  it("gives existing tickets the contact's first message and the first answer after it", async () => {
    await migrateUpTo(handle, '046_contact_search_grams');
    const f = await fixture();
    const answered = await f.ticket();
    // An agent wrote first (no answer: nobody had asked), then the contact twice; the bot, an
    // automatic notice and a note come before the agent's answer at minute 9.
    for (const [kind, minute] of [
      ['agent', 1],
      ['contact', 3],
      ['bot', 4],
      ['automatic', 5],
      ['note', 6],
      ['contact', 7],
      ['agent', 9],
      ['phone', 12],
    ] as const)
      await f.message(answered, kind, minute);
    const byPhone = await f.ticket();
    for (const [kind, minute] of [
      ['contact', 2],
      ['phone', 4],
      ['agent', 5],
    ] as const)
      await f.message(byPhone, kind, minute);
    const waiting = await f.ticket();
    for (const [kind, minute] of [
      ['contact', 2],
      ['bot', 2.5],
    ] as const)
      await f.message(waiting, kind, minute);
    const silent = await f.ticket();
    await f.message(silent, 'agent', 1);

    await migrateToLatest(handle);
    expect(await f.moments(answered)).toEqual({ askedAt: at(3), answeredAt: at(9), answeredBy: f.agent });
    expect(await f.moments(byPhone)).toEqual({ askedAt: at(2), answeredAt: at(4), answeredBy: null });
    expect(await f.moments(waiting)).toEqual({ askedAt: at(2), answeredAt: null, answeredBy: null });
    expect(await f.moments(silent)).toEqual({ askedAt: null, answeredAt: null, answeredBy: null });
  });

  it('keeps them as messages are stored, in any order', async () => {
    await migrateToLatest(handle);
    const f = await fixture();
    const id = await f.ticket();
    // An agent's message before anyone asked is no answer.
    await f.message(id, 'agent', 1);
    expect(await f.moments(id)).toEqual({ askedAt: null, answeredAt: null, answeredBy: null });
    await f.message(id, 'contact', 10);
    await f.message(id, 'bot', 10.5);
    await f.message(id, 'automatic', 11);
    await f.message(id, 'note', 12);
    expect(await f.moments(id)).toEqual({ askedAt: at(10), answeredAt: null, answeredBy: null });
    await f.message(id, 'agent', 20);
    expect(await f.moments(id)).toEqual({ askedAt: at(10), answeredAt: at(20), answeredBy: f.agent });
    // Later messages change nothing: the contact again, another answer.
    await f.message(id, 'contact', 21);
    await f.message(id, 'agent', 22);
    expect(await f.moments(id)).toEqual({ askedAt: at(10), answeredAt: at(20), answeredBy: f.agent });
    // Older history arrives (an import): an answer typed on the phone at minute 15 comes first.
    await f.message(id, 'phone', 15);
    expect(await f.moments(id)).toEqual({ askedAt: at(10), answeredAt: at(15), answeredBy: null });
    // The contact had written at minute 0: the agent's message at minute 1 is now the first answer.
    await f.message(id, 'contact', 0);
    expect(await f.moments(id)).toEqual({ askedAt: at(0), answeredAt: at(1), answeredBy: f.agent });
    // Another ticket's messages leave this one alone.
    const other = await f.ticket();
    await f.message(other, 'contact', -5);
    await f.message(other, 'agent', -4);
    expect(await f.moments(id)).toEqual({ askedAt: at(0), answeredAt: at(1), answeredBy: f.agent });
    expect(await f.moments(other)).toEqual({ askedAt: at(-5), answeredAt: at(-4), answeredBy: f.agent });
  });
});
