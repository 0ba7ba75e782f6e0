/**
 * A whaticket-community database built as its Sequelize migrations build it, one statement list per
 * migration in migration order (backend/src/database/migrations), written here from the facts:
 * Sequelize 5 maps STRING to VARCHAR(255), TEXT to TEXT, INTEGER to INTEGER, DATE to DATETIME on
 * MySQL/MariaDB and TIMESTAMP WITH TIME ZONE on PostgreSQL (DATE(6) to DATETIME(6) on MySQL),
 * BOOLEAN to TINYINT(1) on MySQL and BOOLEAN on PostgreSQL; autoIncrement is auto_increment/SERIAL.
 * createTable puts MySQL foreign keys after the primary key and PostgreSQL ones inline; addColumn
 * with a reference adds a named constraint on MySQL. removeColumn on MySQL drops the column's
 * foreign keys first, as Sequelize's MySQL query interface does. Table names are CamelCase
 * (quoted on PostgreSQL). The join tables WhatsappQueues and UserQueues have no foreign keys.
 */
export type WhaticketDialect = 'mysql' | 'postgres';

type Step = { name: string; mysql: string[]; postgres: string[] };

const my = {
  str: 'VARCHAR(255)',
  date: 'DATETIME',
  date6: 'DATETIME(6)',
  bool: 'TINYINT(1)',
};
const pg = {
  str: 'VARCHAR(255)',
  date: 'TIMESTAMP WITH TIME ZONE',
  date6: 'TIMESTAMP WITH TIME ZONE',
  bool: 'BOOLEAN',
};

/** MySQL `CREATE TABLE` as Sequelize 5 writes it (InnoDB; the database carries utf8mb4/utf8mb4_bin). */
function myTable(table: string, columns: string[], primaryKey: string[], foreignKeys: string[] = []): string {
  const pk = `PRIMARY KEY (${primaryKey.map((c) => `\`${c}\``).join(', ')})`;
  return `CREATE TABLE IF NOT EXISTS \`${table}\` (${[...columns, pk, ...foreignKeys].join(', ')}) ENGINE=InnoDB;`;
}
function pgTable(table: string, columns: string[], primaryKey: string[]): string {
  const pk = `PRIMARY KEY (${primaryKey.map((c) => `"${c}"`).join(', ')})`;
  return `CREATE TABLE IF NOT EXISTS "${table}" (${[...columns, pk].join(', ')});`;
}
const myFk = (column: string, table: string, onDelete: string) => `FOREIGN KEY (\`${column}\`) REFERENCES \`${table}\` (\`id\`) ON DELETE ${onDelete} ON UPDATE CASCADE`;
const pgRef = (table: string, onDelete: string) => `REFERENCES "${table}" ("id") ON DELETE ${onDelete} ON UPDATE CASCADE`;
const myAddFk = (table: string, column: string, type: string, target: string, onDelete: string) =>
  `ALTER TABLE \`${table}\` ADD \`${column}\` ${type}, ADD CONSTRAINT \`${table}_${column}_foreign_idx\` FOREIGN KEY (\`${column}\`) REFERENCES \`${target}\` (\`id\`) ON DELETE ${onDelete} ON UPDATE CASCADE;`;
const pgAddFk = (table: string, column: string, type: string, target: string, onDelete: string) => `ALTER TABLE "${table}" ADD COLUMN "${column}" ${type} ${pgRef(target, onDelete)};`;
const stamps = (d: typeof my | typeof pg, q: string, type: 'date' | 'date6' = 'date') => [`${q}createdAt${q} ${d[type]} NOT NULL`, `${q}updatedAt${q} ${d[type]} NOT NULL`];
/** Marker for MySQL's removeColumn: drop the column's foreign keys (by their real names), then the column. */
export const DROP_COLUMN_WITH_FKS = '-- drop-column-with-fks';

export const MIGRATIONS: Step[] = [
  {
    name: '20200717133438-create-users',
    mysql: [
      myTable(
        'Users',
        ['`id` INTEGER NOT NULL auto_increment', '`name` VARCHAR(255) NOT NULL', '`email` VARCHAR(255) NOT NULL UNIQUE', '`passwordHash` VARCHAR(255) NOT NULL', ...stamps(my, '`')],
        ['id'],
      ),
    ],
    postgres: [pgTable('Users', ['"id" SERIAL', '"name" VARCHAR(255) NOT NULL', '"email" VARCHAR(255) NOT NULL UNIQUE', '"passwordHash" VARCHAR(255) NOT NULL', ...stamps(pg, '"')], ['id'])],
  },
  {
    name: '20200717144403-create-contacts',
    mysql: [
      myTable(
        'Contacts',
        ['`id` INTEGER NOT NULL auto_increment', '`name` VARCHAR(255) NOT NULL', '`number` VARCHAR(255) NOT NULL UNIQUE', '`profilePicUrl` VARCHAR(255)', ...stamps(my, '`')],
        ['id'],
      ),
    ],
    postgres: [pgTable('Contacts', ['"id" SERIAL', '"name" VARCHAR(255) NOT NULL', '"number" VARCHAR(255) NOT NULL UNIQUE', '"profilePicUrl" VARCHAR(255)', ...stamps(pg, '"')], ['id'])],
  },
  {
    name: '20200717145643-create-tickets',
    mysql: [
      myTable(
        'Tickets',
        [
          '`id` INTEGER NOT NULL auto_increment',
          "`status` VARCHAR(255) NOT NULL DEFAULT 'pending'",
          '`lastMessage` VARCHAR(255)',
          '`contactId` INTEGER',
          '`userId` INTEGER',
          ...stamps(my, '`', 'date6'),
        ],
        ['id'],
        [myFk('contactId', 'Contacts', 'CASCADE'), myFk('userId', 'Users', 'SET NULL')],
      ),
    ],
    postgres: [
      pgTable(
        'Tickets',
        [
          '"id" SERIAL',
          `"status" VARCHAR(255) NOT NULL DEFAULT 'pending'`,
          '"lastMessage" VARCHAR(255)',
          `"contactId" INTEGER ${pgRef('Contacts', 'CASCADE')}`,
          `"userId" INTEGER ${pgRef('Users', 'SET NULL')}`,
          ...stamps(pg, '"', 'date6'),
        ],
        ['id'],
      ),
    ],
  },
  {
    name: '20200717151645-create-messages',
    mysql: [
      myTable(
        'Messages',
        [
          '`id` VARCHAR(255) NOT NULL',
          '`body` TEXT NOT NULL',
          '`ack` INTEGER NOT NULL DEFAULT 0',
          '`read` TINYINT(1) NOT NULL DEFAULT false',
          '`mediaType` VARCHAR(255)',
          '`mediaUrl` VARCHAR(255)',
          '`userId` INTEGER',
          '`ticketId` INTEGER NOT NULL',
          ...stamps(my, '`', 'date6'),
        ],
        ['id'],
        [myFk('userId', 'Users', 'SET NULL'), myFk('ticketId', 'Tickets', 'CASCADE')],
      ),
    ],
    postgres: [
      pgTable(
        'Messages',
        [
          '"id" VARCHAR(255) NOT NULL',
          '"body" TEXT NOT NULL',
          '"ack" INTEGER NOT NULL DEFAULT 0',
          '"read" BOOLEAN NOT NULL DEFAULT false',
          '"mediaType" VARCHAR(255)',
          '"mediaUrl" VARCHAR(255)',
          `"userId" INTEGER ${pgRef('Users', 'SET NULL')}`,
          `"ticketId" INTEGER NOT NULL ${pgRef('Tickets', 'CASCADE')}`,
          ...stamps(pg, '"', 'date6'),
        ],
        ['id'],
      ),
    ],
  },
  {
    name: '20200717170223-create-whatsapps',
    mysql: [
      myTable(
        'Whatsapps',
        ['`id` INTEGER NOT NULL auto_increment', '`session` TEXT', '`qrcode` TEXT', '`status` VARCHAR(255)', '`battery` VARCHAR(255)', '`plugged` TINYINT(1)', ...stamps(my, '`')],
        ['id'],
      ),
    ],
    postgres: [pgTable('Whatsapps', ['"id" SERIAL', '"session" TEXT', '"qrcode" TEXT', '"status" VARCHAR(255)', '"battery" VARCHAR(255)', '"plugged" BOOLEAN', ...stamps(pg, '"')], ['id'])],
  },
  {
    name: '20200723200315-create-contacts-custom-fields',
    mysql: [
      myTable(
        'ContactCustomFields',
        ['`id` INTEGER NOT NULL auto_increment', '`name` VARCHAR(255) NOT NULL', '`value` VARCHAR(255) NOT NULL', '`contactId` INTEGER NOT NULL', ...stamps(my, '`')],
        ['id'],
        [myFk('contactId', 'Contacts', 'CASCADE')],
      ),
    ],
    postgres: [
      pgTable(
        'ContactCustomFields',
        ['"id" SERIAL', '"name" VARCHAR(255) NOT NULL', '"value" VARCHAR(255) NOT NULL', `"contactId" INTEGER NOT NULL ${pgRef('Contacts', 'CASCADE')}`, ...stamps(pg, '"')],
        ['id'],
      ),
    ],
  },
  {
    name: '20200723202116-add-email-field-to-contacts',
    mysql: ["ALTER TABLE `Contacts` ADD `email` VARCHAR(255) NOT NULL DEFAULT '';"],
    postgres: [`ALTER TABLE "Contacts" ADD COLUMN "email" VARCHAR(255) NOT NULL DEFAULT '';`],
  },
  {
    name: '20200730153237-remove-user-association-from-messages',
    mysql: [`${DROP_COLUMN_WITH_FKS} Messages userId`],
    postgres: ['ALTER TABLE "Messages" DROP COLUMN "userId";'],
  },
  {
    name: '20200730153545-add-fromMe-to-messages',
    mysql: ['ALTER TABLE `Messages` ADD `fromMe` TINYINT(1) NOT NULL DEFAULT false;'],
    postgres: ['ALTER TABLE "Messages" ADD COLUMN "fromMe" BOOLEAN NOT NULL DEFAULT false;'],
  },
  {
    name: '20200813114236-change-ticket-lastMessage-column-type',
    mysql: ['ALTER TABLE `Tickets` CHANGE `lastMessage` `lastMessage` TEXT;'],
    postgres: [
      'ALTER TABLE "Tickets" ALTER COLUMN "lastMessage" DROP NOT NULL;',
      'ALTER TABLE "Tickets" ALTER COLUMN "lastMessage" DROP DEFAULT;',
      'ALTER TABLE "Tickets" ALTER COLUMN "lastMessage" TYPE TEXT;',
    ],
  },
  {
    name: '20200901235509-add-profile-column-to-users',
    mysql: ["ALTER TABLE `Users` ADD `profile` VARCHAR(255) NOT NULL DEFAULT 'admin';"],
    postgres: [`ALTER TABLE "Users" ADD COLUMN "profile" VARCHAR(255) NOT NULL DEFAULT 'admin';`],
  },
  {
    name: '20200903215941-create-settings',
    mysql: [myTable('Settings', ['`key` VARCHAR(255) NOT NULL', '`value` TEXT NOT NULL', ...stamps(my, '`')], ['key'])],
    postgres: [pgTable('Settings', ['"key" VARCHAR(255) NOT NULL', '"value" TEXT NOT NULL', ...stamps(pg, '"')], ['key'])],
  },
  {
    name: '20200904220257-add-name-to-whatsapp',
    mysql: ['ALTER TABLE `Whatsapps` ADD `name` VARCHAR(255) NOT NULL UNIQUE;'],
    postgres: ['ALTER TABLE "Whatsapps" ADD COLUMN "name" VARCHAR(255) NOT NULL UNIQUE;'],
  },
  {
    name: '20200906122228-add-name-default-field-to-whatsapp',
    mysql: ['ALTER TABLE `Whatsapps` ADD `default` TINYINT(1) NOT NULL DEFAULT false;'],
    postgres: ['ALTER TABLE "Whatsapps" ADD COLUMN "default" BOOLEAN NOT NULL DEFAULT false;'],
  },
  {
    name: '20200906155658-add-whatsapp-field-to-tickets',
    mysql: [myAddFk('Tickets', 'whatsappId', 'INTEGER', 'Whatsapps', 'SET NULL')],
    postgres: [pgAddFk('Tickets', 'whatsappId', 'INTEGER', 'Whatsapps', 'SET NULL')],
  },
  {
    name: '20200919124112-update-default-column-name-on-whatsappp',
    // Sequelize's MySQL renameColumn restates the column's definition in a CHANGE.
    mysql: ['ALTER TABLE `Whatsapps` CHANGE `default` `isDefault` TINYINT(1) NOT NULL DEFAULT false;'],
    postgres: ['ALTER TABLE "Whatsapps" RENAME COLUMN "default" TO "isDefault";'],
  },
  {
    name: '20200927220708-add-isDeleted-column-to-messages',
    mysql: ['ALTER TABLE `Messages` ADD `isDeleted` TINYINT(1) NOT NULL DEFAULT false;'],
    postgres: ['ALTER TABLE "Messages" ADD COLUMN "isDeleted" BOOLEAN NOT NULL DEFAULT false;'],
  },
  {
    name: '20200929145451-add-user-tokenVersion-column',
    mysql: ['ALTER TABLE `Users` ADD `tokenVersion` INTEGER NOT NULL DEFAULT 0;'],
    postgres: ['ALTER TABLE "Users" ADD COLUMN "tokenVersion" INTEGER NOT NULL DEFAULT 0;'],
  },
  {
    name: '20200930162323-add-isGroup-column-to-tickets',
    mysql: ['ALTER TABLE `Tickets` ADD `isGroup` TINYINT(1) NOT NULL DEFAULT false;'],
    postgres: ['ALTER TABLE "Tickets" ADD COLUMN "isGroup" BOOLEAN NOT NULL DEFAULT false;'],
  },
  {
    name: '20200930194808-add-isGroup-column-to-contacts',
    mysql: ['ALTER TABLE `Contacts` ADD `isGroup` TINYINT(1) NOT NULL DEFAULT false;'],
    postgres: ['ALTER TABLE "Contacts" ADD COLUMN "isGroup" BOOLEAN NOT NULL DEFAULT false;'],
  },
  {
    name: '20201004150008-add-contactId-column-to-messages',
    mysql: [myAddFk('Messages', 'contactId', 'INTEGER', 'Contacts', 'CASCADE')],
    postgres: [pgAddFk('Messages', 'contactId', 'INTEGER', 'Contacts', 'CASCADE')],
  },
  {
    name: '20201004155719-add-vcardContactId-column-to-messages',
    mysql: [myAddFk('Messages', 'vcardContactId', 'INTEGER', 'Contacts', 'CASCADE')],
    postgres: [pgAddFk('Messages', 'vcardContactId', 'INTEGER', 'Contacts', 'CASCADE')],
  },
  {
    name: '20201004955719-remove-vcardContactId-column-to-messages',
    mysql: [`${DROP_COLUMN_WITH_FKS} Messages vcardContactId`],
    postgres: ['ALTER TABLE "Messages" DROP COLUMN "vcardContactId";'],
  },
  {
    name: '20201026215410-add-retries-to-whatsapps',
    mysql: ['ALTER TABLE `Whatsapps` ADD `retries` INTEGER NOT NULL DEFAULT 0;'],
    postgres: ['ALTER TABLE "Whatsapps" ADD COLUMN "retries" INTEGER NOT NULL DEFAULT 0;'],
  },
  {
    name: '20201028124427-add-quoted-msg-to-messages',
    mysql: [myAddFk('Messages', 'quotedMsgId', 'VARCHAR(255)', 'Messages', 'SET NULL')],
    postgres: [pgAddFk('Messages', 'quotedMsgId', 'VARCHAR(255)', 'Messages', 'SET NULL')],
  },
  {
    name: '20210108001431-add-unreadMessages-to-tickets',
    mysql: ['ALTER TABLE `Tickets` ADD `unreadMessages` INTEGER;'],
    postgres: ['ALTER TABLE "Tickets" ADD COLUMN "unreadMessages" INTEGER;'],
  },
  {
    name: '20210108164404-create-queues',
    mysql: [
      myTable('Queues', ['`id` INTEGER NOT NULL auto_increment', '`name` VARCHAR(255) NOT NULL UNIQUE', '`color` VARCHAR(255) NOT NULL UNIQUE', '`greetingMessage` TEXT', ...stamps(my, '`')], ['id']),
    ],
    postgres: [pgTable('Queues', ['"id" SERIAL', '"name" VARCHAR(255) NOT NULL UNIQUE', '"color" VARCHAR(255) NOT NULL UNIQUE', '"greetingMessage" TEXT', ...stamps(pg, '"')], ['id'])],
  },
  {
    name: '20210108164504-add-queueId-to-tickets',
    mysql: [myAddFk('Tickets', 'queueId', 'INTEGER', 'Queues', 'SET NULL')],
    postgres: [pgAddFk('Tickets', 'queueId', 'INTEGER', 'Queues', 'SET NULL')],
  },
  {
    name: '20210108174594-associate-whatsapp-queue',
    mysql: [myTable('WhatsappQueues', ['`whatsappId` INTEGER', '`queueId` INTEGER', ...stamps(my, '`')], ['whatsappId', 'queueId'])],
    postgres: [pgTable('WhatsappQueues', ['"whatsappId" INTEGER', '"queueId" INTEGER', ...stamps(pg, '"')], ['whatsappId', 'queueId'])],
  },
  {
    name: '20210108204708-associate-users-queue',
    mysql: [myTable('UserQueues', ['`userId` INTEGER', '`queueId` INTEGER', ...stamps(my, '`')], ['userId', 'queueId'])],
    postgres: [pgTable('UserQueues', ['"userId" INTEGER', '"queueId" INTEGER', ...stamps(pg, '"')], ['userId', 'queueId'])],
  },
  {
    name: '20210109192513-add-greetingMessage-to-whatsapp',
    mysql: ['ALTER TABLE `Whatsapps` ADD `greetingMessage` TEXT;'],
    postgres: ['ALTER TABLE "Whatsapps" ADD COLUMN "greetingMessage" TEXT;'],
  },
  {
    name: '20210818102605-create-quickAnswers',
    mysql: [myTable('QuickAnswers', ['`id` INTEGER NOT NULL auto_increment', '`shortcut` TEXT NOT NULL', '`message` TEXT NOT NULL', ...stamps(my, '`')], ['id'])],
    postgres: [pgTable('QuickAnswers', ['"id" SERIAL', '"shortcut" TEXT NOT NULL', '"message" TEXT NOT NULL', ...stamps(pg, '"')], ['id'])],
  },
  {
    name: '20211016014719-add-farewellMessage-to-whatsapp',
    mysql: ['ALTER TABLE `Whatsapps` ADD `farewellMessage` TEXT;'],
    postgres: ['ALTER TABLE "Whatsapps" ADD COLUMN "farewellMessage" TEXT;'],
  },
  {
    name: '20220223095932-add-whatsapp-to-user',
    mysql: [myAddFk('Users', 'whatsappId', 'INTEGER', 'Whatsapps', 'SET NULL')],
    postgres: [pgAddFk('Users', 'whatsappId', 'INTEGER', 'Whatsapps', 'SET NULL')],
  },
];

/** sequelize-cli's bookkeeping table, filled with the names of the compiled migrations it ran. */
export const META = {
  mysql: 'CREATE TABLE IF NOT EXISTS `SequelizeMeta` (`name` VARCHAR(255) NOT NULL UNIQUE, PRIMARY KEY (`name`)) ENGINE=InnoDB;',
  postgres: 'CREATE TABLE IF NOT EXISTS "SequelizeMeta" ("name" VARCHAR(255) NOT NULL UNIQUE, PRIMARY KEY ("name"));',
};

/** The tables whaticket's migrations leave, in the order they were created. */
export const WHATICKET_TABLES = ['Users', 'Contacts', 'Tickets', 'Messages', 'Whatsapps', 'ContactCustomFields', 'Settings', 'Queues', 'WhatsappQueues', 'UserQueues', 'QuickAnswers'] as const;
