import { sql, type Kysely } from 'kysely';

/**
 * A ticket tab's page read in order whatever the number of tickets: one ordered range per way of
 * seeing a ticket (assigned to the viewer, unassigned in one of the viewer's queues, unassigned
 * without a queue), each `(status, isGroup, userId or 0, queueId or 0)` in `updatedAt` order,
 * merged (see features/tickets/tickets-tab.repository.ts). Without it, a page walked a status's tickets in
 * order until 20 visible ones turned up: all of them when fewer are visible (the bell's unread
 * open tickets of an admin who holds none, 200,000 rows at 1,000,000 tickets). The unread count
 * rides along, so the bell's ranges are checked in the index (it changes with every message, as
 * updatedAt does: no write more).
 */
export function ticketTabIndexMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // No assignee and no queue are 0 in the index (ids start at 1): PostgreSQL reads a range in
      // order only after equalities, and `is null` is not one to its planner.
      await sql`create index tickets_tab on tickets (status, "isGroup", coalesce("userId", 0), coalesce("queueId", 0), "updatedAt", id, "unreadMessages")`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('tickets_tab').execute();
    },
  };
}
