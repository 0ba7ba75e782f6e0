import type { Db } from '../../core/db/database.js';

/** Whether one row matches: each step is one indexed `limit 1` read. */
async function any(query: { executeTakeFirst: () => Promise<unknown> }): Promise<boolean> {
  return (await query.executeTakeFirst()) !== undefined;
}

export async function firstRunFacts(db: Db): Promise<{ connection: boolean; queue: boolean; agent: boolean; message: boolean }> {
  const [connection, queue, agent, message] = await Promise.all([
    any(db.selectFrom('whatsapps').select('id').where('status', '=', 'CONNECTED').limit(1)),
    any(db.selectFrom('queues').select('id').limit(1)),
    any(
      db
        .selectFrom('users')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['profile']), '!=', 'admin'))
        .limit(1),
    ),
    // Written by a person in the inbox (the partial index messages_userId): greetings, the chatbot and campaigns do not count.
    any(db.selectFrom('messages').select('id').where('userId', 'is not', null).where('isNote', '=', 0).limit(1)),
  ]);
  return { connection, queue, agent, message };
}

export async function checklistDismissed(db: Db, userId: number): Promise<boolean> {
  const row = await db.selectFrom('users').select('checklistDismissedAt').where('id', '=', userId).executeTakeFirst();
  return row?.checklistDismissedAt != null;
}

export async function dismissChecklist(db: Db, userId: number, now: string): Promise<void> {
  await db.updateTable('users').set({ checklistDismissedAt: now }).where('id', '=', userId).where('checklistDismissedAt', 'is', null).execute();
}
