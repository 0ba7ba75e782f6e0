import { sql, type Kysely, type CreateTableBuilder } from 'kysely';
import type { DbKind } from '../database.js';

/** The first schema: every entity of the product, with the constraints that must never break. */
export function initialMigration(kind: DbKind) {
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';

  function withId<T extends string>(t: CreateTableBuilder<T, never>) {
    return kind === 'postgres' ? t.addColumn('id', 'serial', (c) => c.primaryKey()) : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  }
  function withTimestamps<T extends string, C extends string>(t: CreateTableBuilder<T, C>) {
    return t.addColumn('createdAt', ts, (c) => c.notNull()).addColumn('updatedAt', ts, (c) => c.notNull());
  }

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await withTimestamps(
        withId(db.schema.createTable('queues'))
          .addColumn('name', 'varchar(50)', (c) => c.notNull())
          .addColumn('color', 'varchar(9)', (c) => c.notNull())
          .addColumn('greetingMessage', 'text', (c) => c.notNull().defaultTo('')),
      ).execute();
      await db.schema.createIndex('queues_color_unique').on('queues').column('color').unique().execute();

      await withTimestamps(
        withId(db.schema.createTable('whatsapps'))
          .addColumn('name', 'varchar(50)', (c) => c.notNull())
          .addColumn('channel', 'varchar(20)', (c) => c.notNull())
          .addColumn('status', 'varchar(20)', (c) => c.notNull())
          .addColumn('qrcode', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('retries', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('isDefault', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('greetingMessage', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('farewellMessage', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('leaseOwner', 'varchar(100)')
          .addColumn('leaseUntil', ts),
      ).execute();
      await db.schema.createIndex('whatsapps_name_unique').on('whatsapps').column('name').unique().execute();

      await db.schema
        .createTable('whatsappQueues')
        .addColumn('whatsappId', 'integer', (c) => c.notNull().references('whatsapps.id').onDelete('cascade'))
        .addColumn('queueId', 'integer', (c) => c.notNull().references('queues.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('whatsappQueues_pk', ['whatsappId', 'queueId'])
        .execute();
      await db.schema.createIndex('whatsappQueues_queueId').on('whatsappQueues').column('queueId').execute();

      await db.schema
        .createTable('channelAuth')
        .addColumn('whatsappId', 'integer', (c) => c.notNull().references('whatsapps.id').onDelete('cascade'))
        .addColumn('type', 'varchar(40)', (c) => c.notNull())
        .addColumn('keyId', 'varchar(200)', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('channelAuth_pk', ['whatsappId', 'type', 'keyId'])
        .execute();

      await withTimestamps(
        withId(db.schema.createTable('users'))
          .addColumn('name', 'varchar(50)', (c) => c.notNull())
          .addColumn('email', 'varchar(120)', (c) => c.notNull())
          .addColumn('passwordHash', 'varchar(200)', (c) => c.notNull())
          .addColumn('profile', 'varchar(10)', (c) => c.notNull().defaultTo('user'))
          .addColumn('tokenVersion', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('whatsappId', 'integer', (c) => c.references('whatsapps.id').onDelete('set null')),
      ).execute();
      await db.schema.createIndex('users_email_unique').on('users').column('email').unique().execute();

      await db.schema
        .createTable('userQueues')
        .addColumn('userId', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('queueId', 'integer', (c) => c.notNull().references('queues.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('userQueues_pk', ['userId', 'queueId'])
        .execute();
      await db.schema.createIndex('userQueues_queueId').on('userQueues').column('queueId').execute();

      await withTimestamps(
        withId(db.schema.createTable('contacts'))
          .addColumn('name', 'varchar(100)', (c) => c.notNull())
          .addColumn('number', 'varchar(50)', (c) => c.notNull())
          .addColumn('email', 'varchar(120)', (c) => c.notNull().defaultTo(''))
          .addColumn('profilePicUrl', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('isGroup', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('searchText', 'text', (c) => c.notNull().defaultTo('')),
      ).execute();
      await db.schema.createIndex('contacts_number_unique').on('contacts').column('number').unique().execute();
      await db.schema.createIndex('contacts_name').on('contacts').column('name').execute();

      await withId(db.schema.createTable('contactExtraInfo'))
        .addColumn('contactId', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('contactExtraInfo_contactId').on('contactExtraInfo').column('contactId').execute();

      await withTimestamps(
        withId(db.schema.createTable('tickets'))
          .addColumn('status', 'varchar(10)', (c) => c.notNull())
          .addColumn('contactId', 'integer', (c) => c.notNull().references('contacts.id').onDelete('cascade'))
          .addColumn('whatsappId', 'integer', (c) => c.notNull().references('whatsapps.id').onDelete('cascade'))
          .addColumn('userId', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('queueId', 'integer', (c) => c.references('queues.id').onDelete('set null'))
          .addColumn('lastMessage', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('unreadMessages', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('isGroup', 'integer', (c) => c.notNull().defaultTo(0)),
      ).execute();
      // One open-or-pending ticket per contact and connection, whatever races the inbound pipeline meets.
      await db.schema
        .createIndex('tickets_contactId_whatsappId_active_unique')
        .on('tickets')
        .columns(['contactId', 'whatsappId'])
        .unique()
        .where(sql.ref('status'), 'in', ['open', 'pending'])
        .execute();
      // The ticket lists: by status, queue and owner, newest first.
      await db.schema.createIndex('tickets_status_updatedAt').on('tickets').columns(['status', 'updatedAt']).execute();
      await db.schema.createIndex('tickets_queueId_status_updatedAt').on('tickets').columns(['queueId', 'status', 'updatedAt']).execute();
      await db.schema.createIndex('tickets_userId_status_updatedAt').on('tickets').columns(['userId', 'status', 'updatedAt']).execute();
      await db.schema.createIndex('tickets_contactId').on('tickets').column('contactId').execute();
      await db.schema.createIndex('tickets_whatsappId').on('tickets').column('whatsappId').execute();

      await withTimestamps(
        withId(db.schema.createTable('messages'))
          .addColumn('ticketId', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
          .addColumn('whatsappId', 'integer', (c) => c.notNull().references('whatsapps.id').onDelete('cascade'))
          .addColumn('providerId', 'varchar(200)', (c) => c.notNull())
          .addColumn('contactId', 'integer', (c) => c.references('contacts.id').onDelete('set null'))
          .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('fromMe', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('read', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('ack', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('mediaType', 'varchar(20)')
          .addColumn('mediaPath', 'text')
          .addColumn('quotedMsgId', 'integer', (c) => c.references('messages.id').onDelete('set null'))
          .addColumn('isDeleted', 'integer', (c) => c.notNull().defaultTo(0)),
      ).execute();
      await db.schema.createIndex('messages_whatsappId_providerId_unique').on('messages').columns(['whatsappId', 'providerId']).unique().execute();
      await db.schema.createIndex('messages_ticketId_createdAt').on('messages').columns(['ticketId', 'createdAt']).execute();

      await withTimestamps(
        withId(db.schema.createTable('quickAnswers'))
          .addColumn('shortcut', 'varchar(50)', (c) => c.notNull())
          .addColumn('message', 'text', (c) => c.notNull())
          .addColumn('searchText', 'text', (c) => c.notNull().defaultTo('')),
      ).execute();
      await db.schema.createIndex('quickAnswers_shortcut').on('quickAnswers').column('shortcut').execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'varchar(60)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updatedAt', ts, (c) => c.notNull())
        .execute();
    },
  };
}
