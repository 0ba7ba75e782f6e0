import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * SMS and voice calls are campaigns sent through the telephony provider, not a connection:
 * `campaigns.whatsappId` becomes optional and `sender` holds the number they come from and
 * `language` the text-to-speech language of a call. A
 * recipient records what the provider reported since (`delivery`) and its tries (`attempts`).
 *
 * SQLite cannot drop a NOT NULL: the table is rebuilt as SQLite documents it (foreign keys off,
 * new table, copy, drop, rename, check, in one transaction), so no recipient is touched.
 */
export function phoneCampaignsMigration(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (kind === 'postgres') {
        await db.schema
          .alterTable('campaigns')
          .alterColumn('whatsappId', (c) => c.dropNotNull())
          .execute();
        await db.schema.alterTable('campaigns').addColumn('sender', 'varchar(30)').execute();
        await db.schema.alterTable('campaigns').addColumn('language', 'varchar(10)').execute();
      } else {
        await rebuildSqliteCampaigns(db);
      }
      await db.schema.alterTable('campaignRecipients').addColumn('delivery', 'varchar(20)').execute();
      await db.schema
        .alterTable('campaignRecipients')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}

const COLUMNS =
  'id, kind, whatsappId, userId, source, message, mediaPath, mediaMimetype, mediaName, mediaType, minDelay, maxDelay, status, pauseReason, note, scheduledAt, startedAt, finishedAt, createdAt, updatedAt, audience';

async function rebuildSqliteCampaigns(db: Kysely<unknown>): Promise<void> {
  // Outside a transaction, or SQLite ignores it: with foreign keys on, dropping the old table
  // would delete every recipient through ON DELETE CASCADE.
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await sql`BEGIN IMMEDIATE`.execute(db);
    try {
      await db.schema
        .createTable('campaigns_new')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('kind', 'varchar(20)', (c) => c.notNull())
        .addColumn('whatsappId', 'integer', (c) => c.references('whatsapps.id').onDelete('cascade'))
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
        .addColumn('scheduledAt', 'text')
        .addColumn('startedAt', 'text')
        .addColumn('finishedAt', 'text')
        .addColumn('createdAt', 'text', (c) => c.notNull())
        .addColumn('updatedAt', 'text', (c) => c.notNull())
        .addColumn('audience', 'varchar(12)', (c) => c.notNull().defaultTo('numbers'))
        .addColumn('sender', 'varchar(30)')
        .addColumn('language', 'varchar(10)')
        .execute();
      await sql.raw(`INSERT INTO campaigns_new (${COLUMNS}) SELECT ${COLUMNS} FROM campaigns`).execute(db);
      await sql`DROP TABLE campaigns`.execute(db);
      await sql`ALTER TABLE campaigns_new RENAME TO campaigns`.execute(db);
      await db.schema.createIndex('campaigns_status_scheduledAt').on('campaigns').columns(['status', 'scheduledAt']).execute();
      await db.schema.createIndex('campaigns_whatsappId_status').on('campaigns').columns(['whatsappId', 'status']).execute();
      await db.schema.createIndex('campaigns_createdAt').on('campaigns').column('createdAt').execute();
      const broken = await sql`PRAGMA foreign_key_check`.execute(db);
      if (broken.rows.length > 0) throw new Error(`campaigns rebuild: ${broken.rows.length} broken references`);
      await sql`COMMIT`.execute(db);
    } catch (error) {
      await sql`ROLLBACK`.execute(db);
      throw error;
    }
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
