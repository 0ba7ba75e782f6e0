import type { Kysely } from 'kysely';
import type { DbKind } from '../database.js';

/**
 * Group tools ride on campaigns: a campaign's recipients may be groups (`groupId`), its kind
 * may be a group action (`groupSubject` and the like, longer than the first kinds), and its
 * audience says whom it was for: typed numbers, groups, or the participants of groups.
 */
export function groupCampaignsMigration(kind: DbKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (kind === 'postgres')
        await db.schema
          .alterTable('campaigns')
          .alterColumn('kind', (c) => c.setDataType('varchar(20)'))
          .execute();
      await db.schema
        .alterTable('campaigns')
        .addColumn('audience', 'varchar(12)', (c) => c.notNull().defaultTo('numbers'))
        .execute();
      await db.schema.alterTable('campaignRecipients').addColumn('groupId', 'varchar(40)').execute();
    },
  };
}
