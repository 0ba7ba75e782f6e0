/**
 * Migration 014 on data written before it: on SQLite the campaigns table is rebuilt, and not
 * one campaign or recipient may be lost or changed on the way (its foreign key cascades).
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

describe('014_phone_campaigns', () => {
  it('keeps every campaign and recipient, and lets SMS and calls go without a connection', async () => {
    await migrateUpTo(handle, '013_chatbot');
    const now = new Date().toISOString();
    const db = handle.db;
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
    const campaignValues = {
      whatsappId: phone.id,
      userId: null,
      source: 'page',
      mediaPath: null,
      mediaMimetype: null,
      mediaName: null,
      mediaType: null,
      minDelay: 1,
      maxDelay: 3,
      pauseReason: null,
      note: null,
      startedAt: now,
      finishedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const first = await db
      .insertInto('campaigns')
      .values({ ...campaignValues, kind: 'text', message: 'Olá', status: 'running', scheduledAt: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const second = await db
      .insertInto('campaigns')
      .values({ ...campaignValues, kind: 'groupSubject', message: 'Novo nome', status: 'completed', scheduledAt: now, audience: 'groups' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const recipient = { input: '5511988887777', number: '5511988887777', groupId: null, status: 'sent', error: null, providerId: 'ABC', sentAt: now, updatedAt: now };
    await db
      .insertInto('campaignRecipients')
      .values([
        { ...recipient, campaignId: first.id },
        { ...recipient, campaignId: first.id, input: 'x', number: null, status: 'invalid', providerId: null, sentAt: null },
        { ...recipient, campaignId: second.id, number: null, groupId: '120363000000000001@g.us', input: 'Clientes' },
      ])
      .execute();
    const before = await db.selectFrom('campaignRecipients').selectAll().orderBy('id').execute();
    const campaignsBefore = await db.selectFrom('campaigns').selectAll().orderBy('id').execute();

    await migrateToLatest(handle);

    const after = await db.selectFrom('campaignRecipients').selectAll().orderBy('id').execute();
    expect(after).toEqual(before.map((row) => ({ ...row, delivery: null, attempts: 0 })));
    const campaignsAfter = await db.selectFrom('campaigns').selectAll().orderBy('id').execute();
    expect(campaignsAfter).toEqual(campaignsBefore.map((row) => ({ ...row, sender: null, language: null })));
    // An SMS campaign has no connection; deleting the connection still takes its campaigns along.
    await db
      .insertInto('campaigns')
      .values({ ...campaignValues, whatsappId: null, kind: 'sms', message: 'Oi', status: 'running', scheduledAt: null, sender: 'Loja' })
      .execute();
    await db.deleteFrom('whatsapps').where('id', '=', phone.id).execute();
    expect(await db.selectFrom('campaigns').select(['kind', 'whatsappId']).execute()).toEqual([{ kind: 'sms', whatsappId: null }]);
    expect(await db.selectFrom('campaignRecipients').select('id').execute()).toEqual([]);
  });
});
