import type { Kysely } from 'kysely';

/**
 * A ticket tab's page read in order whatever the number of tickets: one ordered range per way of
 * seeing a ticket (assigned to the viewer, unassigned in one of the viewer's queues, unassigned
 * without a queue), each `(status, isGroup, userId, queueId)` in `updatedAt` order, merged (see
 * features/tickets/tickets-tab.repository.ts). Without it, a page walked a status's tickets in
 * order until 20 visible ones turned up: all of them when fewer are visible (the bell's unread
 * open tickets of an admin who holds none, 200,000 rows at 1,000,000 tickets). The unread count
 * rides along, so the bell's ranges are checked and counted from the index alone (it changes with
 * every message, as updatedAt does: no write more).
 */
export function ticketTabIndexMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('tickets_tab').on('tickets').columns(['status', 'isGroup', 'userId', 'queueId', 'updatedAt', 'id', 'unreadMessages']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('tickets_tab').execute();
    },
  };
}
