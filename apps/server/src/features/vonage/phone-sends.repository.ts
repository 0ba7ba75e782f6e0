/** SMS and call recipients as Vonage reports on them, and what a number was sent. */
import type { TPhoneSend } from '@zapdesk/shared/vonage';
import type { Db } from '../../core/db/database.js';

/** The recipient of an SMS or call campaign that Vonage knows by this id. */
export async function findPhoneRecipient(db: Db, kind: 'sms' | 'call', providerId: string): Promise<{ id: number; campaignId: number; delivery: string | null } | undefined> {
  return db
    .selectFrom('campaignRecipients')
    .innerJoin('campaigns', 'campaigns.id', 'campaignRecipients.campaignId')
    .select(['campaignRecipients.id', 'campaignRecipients.campaignId', 'campaignRecipients.delivery'])
    .where('campaignRecipients.providerId', '=', providerId)
    .where('campaigns.kind', '=', kind)
    .executeTakeFirst();
}

/**
 * Records a report, only if the recipient's report is still `previous` (two webhooks at once:
 * one wins). `failed`: it did not arrive; a sent recipient becomes failed with that code.
 */
export async function recordDelivery(db: Db, id: number, previous: string | null, report: { delivery: string; failed: string | undefined }, now: string): Promise<boolean> {
  const result = await db
    .updateTable('campaignRecipients')
    .set((eb) => ({
      delivery: report.delivery,
      updatedAt: now,
      ...(report.failed
        ? { status: eb.case().when('status', '=', 'sent').then('failed').else(eb.ref('status')).end(), error: eb.case().when('status', '=', 'sent').then(report.failed).else(eb.ref('error')).end() }
        : {}),
    }))
    .where('id', '=', id)
    .where('delivery', previous === null ? 'is' : '=', previous)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The latest SMS and calls to any of these numbers. */
export async function phoneSendsTo(db: Db, numbers: string[], limit: number): Promise<TPhoneSend[]> {
  const rows = await db
    .selectFrom('campaignRecipients')
    .innerJoin('campaigns', 'campaigns.id', 'campaignRecipients.campaignId')
    .select(['campaigns.id as campaignId', 'campaigns.kind', 'campaigns.message', 'campaignRecipients.status', 'campaignRecipients.delivery', 'campaignRecipients.sentAt', 'campaigns.createdAt'])
    .where('campaignRecipients.number', 'in', numbers)
    .where('campaigns.kind', 'in', ['sms', 'call'])
    .orderBy('campaignRecipients.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ campaignId: r.campaignId, kind: r.kind === 'call' ? 'call' : 'sms', text: r.message, status: r.status, delivery: r.delivery, sentAt: r.sentAt, createdAt: r.createdAt }));
}
