import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Campaigns: a bulk send is a row, and each of its recipients a row, before anything is sent.
 * A recipient is claimed (status 'sending', with the provider id it goes out under) before its
 * send, so a crash leaves a trace of every send that may have happened.
 */
export function campaignsMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let campaigns = db.schema.createTable('campaigns');
      campaigns = kind === 'postgres' ? campaigns.addColumn('id', 'serial', (c) => c.primaryKey()) : campaigns.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await campaigns
        .addColumn('kind', 'varchar(10)', (c) => c.notNull())
        .addColumn('whatsappId', 'integer', (c) => c.notNull().references('whatsapps.id').onDelete('cascade'))
        .addColumn('userId', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('source', 'varchar(10)', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('mediaPath', 'varchar(300)')
        .addColumn('mediaMimetype', 'varchar(100)')
        .addColumn('mediaName', 'varchar(300)')
        .addColumn('mediaType', 'varchar(10)')
        .addColumn('minDelay', 'integer', (c) => c.notNull())
        .addColumn('maxDelay', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(12)', (c) => c.notNull())
        .addColumn('pauseReason', 'varchar(60)')
        .addColumn('note', 'varchar(300)')
        .addColumn('scheduledAt', ts)
        .addColumn('startedAt', ts)
        .addColumn('finishedAt', ts)
        .addColumn('createdAt', ts, (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('campaigns_status_scheduledAt').on('campaigns').columns(['status', 'scheduledAt']).execute();
      await db.schema.createIndex('campaigns_whatsappId_status').on('campaigns').columns(['whatsappId', 'status']).execute();
      await db.schema.createIndex('campaigns_createdAt').on('campaigns').column('createdAt').execute();

      let recipients = db.schema.createTable('campaignRecipients');
      recipients = kind === 'postgres' ? recipients.addColumn('id', 'serial', (c) => c.primaryKey()) : recipients.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await recipients
        .addColumn('campaignId', 'integer', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
        .addColumn('input', 'varchar(60)', (c) => c.notNull())
        .addColumn('number', 'varchar(20)')
        .addColumn('status', 'varchar(14)', (c) => c.notNull())
        .addColumn('error', 'varchar(60)')
        .addColumn('providerId', 'varchar(200)')
        .addColumn('sentAt', ts)
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('campaignRecipients_campaignId_status').on('campaignRecipients').columns(['campaignId', 'status', 'id']).execute();
      await db.schema.createIndex('campaignRecipients_providerId').on('campaignRecipients').column('providerId').execute();
      await db.schema.createIndex('campaignRecipients_number').on('campaignRecipients').column('number').execute();
      // Contacts nobody talked with (the tool API's delContacts) and a contact's deletion look messages up by contact.
      await db.schema.createIndex('messages_contactId').on('messages').column('contactId').execute();
    },
  };
}
