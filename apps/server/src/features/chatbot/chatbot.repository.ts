/** Chatbot rows: a session per ticket, and the customer messages waiting to go to the bot. */
import { sql } from 'kysely';
import type { Db } from '../../core/db/database.js';

export type ChatbotStatus = 'active' | 'off' | 'ended';
export type Choice = { id: string; text: string };
export type SessionRow = { ticketId: number; sessionId: string | null; status: ChatbotStatus; choices: Choice[]; lastActivityAt: string; lastError: string | null; errorAt: string | null };

function parseChoices(raw: string): Choice[] {
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as Choice[]) : [];
  } catch {
    return [];
  }
}

export async function findSession(db: Db, ticketId: number): Promise<SessionRow | undefined> {
  const row = await db.selectFrom('chatbotSessions').selectAll().where('ticketId', '=', ticketId).executeTakeFirst();
  if (!row) return undefined;
  const status: ChatbotStatus = row.status === 'off' || row.status === 'ended' ? row.status : 'active';
  return { ticketId: row.ticketId, sessionId: row.sessionId, status, choices: parseChoices(row.choices), lastActivityAt: row.lastActivityAt, lastError: row.lastError, errorAt: row.errorAt };
}

export type SessionPatch = Partial<{ sessionId: string | null; status: ChatbotStatus; choices: Choice[]; lastActivityAt: string; lastError: string | null; errorAt: string | null }>;

/** Creates the ticket's session or changes it. */
export async function saveSession(db: Db, ticketId: number, patch: SessionPatch, now: string): Promise<void> {
  const { choices, ...rest } = patch;
  const values = { ...rest, ...(choices ? { choices: JSON.stringify(choices) } : {}), updatedAt: now };
  await db
    .insertInto('chatbotSessions')
    .values({ ticketId, sessionId: null, status: 'active', lastActivityAt: now, lastError: null, errorAt: null, ...values })
    .onConflict((oc) => oc.column('ticketId').doUpdateSet(values))
    .execute();
}

/** The bot's answers still to send, and what follows them: a queue, the queue menu (null), or nothing (the flow goes on). */
export type Pending<T> = { outputs: T[]; handOver?: string | null };

export async function savePending<T>(db: Db, ticketId: number, pending: Pending<T> | undefined, now: string): Promise<void> {
  await db
    .updateTable('chatbotSessions')
    .set({ pending: pending ? JSON.stringify(pending) : '', updatedAt: now })
    .where('ticketId', '=', ticketId)
    .execute();
}

export async function findPending<T>(db: Db, ticketId: number): Promise<Pending<T> | undefined> {
  const row = await db.selectFrom('chatbotSessions').select('pending').where('ticketId', '=', ticketId).executeTakeFirst();
  if (!row?.pending) return undefined;
  try {
    return JSON.parse(row.pending) as Pending<T>;
  } catch {
    return undefined;
  }
}

/** Tickets with bot answers not sent yet (a restart came in between). */
export async function ticketsWithPending(db: Db, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('chatbotSessions').select('ticketId').where('pending', '!=', '').orderBy('updatedAt').limit(limit).execute();
  return rows.map((r) => r.ticketId);
}

export async function insertInput(db: Db, ticketId: number, input: { text: string; restart: boolean }, now: string): Promise<void> {
  await db
    .insertInto('chatbotInputs')
    .values({ ticketId, text: input.text, restart: input.restart ? 1 : 0, attempts: 0, nextAttemptAt: now, createdAt: now })
    .execute();
}

/**
 * Tickets whose waiting messages may go to the bot now: due, and the newest one older than the
 * debounce (messages typed in a burst go as one).
 */
export async function ticketsReady(db: Db, now: string, quietSince: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('chatbotInputs')
    .select('ticketId')
    .groupBy('ticketId')
    .having((eb) => eb.fn.max('nextAttemptAt'), '<=', now)
    .having((eb) => eb.fn.max('createdAt'), '<=', quietSince)
    .orderBy(sql`min(id)`)
    .limit(limit)
    .execute();
  return rows.map((r) => r.ticketId);
}

export type InputRow = { id: number; text: string; restart: boolean; attempts: number };

export async function inputsOf(db: Db, ticketId: number): Promise<InputRow[]> {
  const rows = await db.selectFrom('chatbotInputs').select(['id', 'text', 'restart', 'attempts']).where('ticketId', '=', ticketId).orderBy('id').execute();
  return rows.map((r) => ({ ...r, restart: r.restart === 1 }));
}

export async function deleteInputs(db: Db, ids: number[]): Promise<void> {
  if (ids.length) await db.deleteFrom('chatbotInputs').where('id', 'in', ids).execute();
}

export async function deleteTicketInputs(db: Db, ticketId: number): Promise<void> {
  await db.deleteFrom('chatbotInputs').where('ticketId', '=', ticketId).execute();
}

export async function postponeInputs(db: Db, ids: number[], attempts: number, nextAttemptAt: string): Promise<void> {
  if (ids.length) await db.updateTable('chatbotInputs').set({ attempts, nextAttemptAt }).where('id', 'in', ids).execute();
}

/** The latest error of the bot, for the settings page. */
export async function latestError(db: Db): Promise<{ ticketId: number; lastError: string; errorAt: string } | undefined> {
  const row = await db.selectFrom('chatbotSessions').select(['ticketId', 'lastError', 'errorAt']).where('lastError', 'is not', null).orderBy('errorAt', 'desc').limit(1).executeTakeFirst();
  return row && row.lastError && row.errorAt ? { ticketId: row.ticketId, lastError: row.lastError, errorAt: row.errorAt } : undefined;
}
