/** The import map (migration 027): which source row became which target row. */
import type { Db } from '../../core/db/database.js';

export type Mapped = { targetId: number; sourceUpdatedAt: string | null };
export type MapWrite = { sourceTable: string; sourceId: string; targetId: number; sourceUpdatedAt: string | null };

/** Parameters per statement stay far below SQLite's limit. */
const CHUNK = 500;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function lookup(db: Db, source: string, sourceTable: string, sourceIds: Iterable<string>): Promise<Map<string, Mapped>> {
  const found = new Map<string, Mapped>();
  for (const part of chunks([...new Set(sourceIds)])) {
    const rows = await db
      .selectFrom('importMap')
      .select(['sourceId', 'targetId', 'sourceUpdatedAt'])
      .where('source', '=', source)
      .where('sourceTable', '=', sourceTable)
      .where('sourceId', 'in', part)
      .execute();
    for (const r of rows) found.set(r.sourceId, { targetId: r.targetId, sourceUpdatedAt: r.sourceUpdatedAt });
  }
  return found;
}

/** The whole map of one (small) table: source id to target id. */
export async function lookupAll(db: Db, source: string, sourceTable: string): Promise<Map<string, number>> {
  const rows = await db.selectFrom('importMap').select(['sourceId', 'targetId']).where('source', '=', source).where('sourceTable', '=', sourceTable).execute();
  return new Map(rows.map((r) => [r.sourceId, r.targetId]));
}

/** The source id a target row came from (for reporting a conflict with an earlier row). */
export async function sourceIdOf(db: Db, source: string, sourceTable: string, targetId: number): Promise<string | undefined> {
  const row = await db.selectFrom('importMap').select('sourceId').where('source', '=', source).where('sourceTable', '=', sourceTable).where('targetId', '=', targetId).executeTakeFirst();
  return row?.sourceId;
}

export async function insertMaps(db: Db, source: string, rows: MapWrite[]): Promise<void> {
  for (const part of chunks(rows, 150)) {
    await db
      .insertInto('importMap')
      .values(part.map((r) => ({ source, ...r })))
      .execute();
  }
}

export async function touchMap(db: Db, source: string, sourceTable: string, sourceId: string, sourceUpdatedAt: string): Promise<void> {
  await db.updateTable('importMap').set({ sourceUpdatedAt }).where('source', '=', source).where('sourceTable', '=', sourceTable).where('sourceId', '=', sourceId).execute();
}

export async function startRun(db: Db, source: string, now: string): Promise<number> {
  const row = await db.insertInto('importRuns').values({ source, startedAt: now, finishedAt: null, report: null, messagesWatermark: null }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function finishRun(db: Db, id: number, report: string, now: string, messagesWatermark: string | null): Promise<void> {
  await db.updateTable('importRuns').set({ finishedAt: now, report, messagesWatermark }).where('id', '=', id).execute();
}

/** The latest messages watermark of a complete run of this source (an interrupted run's does not count). */
export async function lastMessagesWatermark(db: Db, source: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('importRuns')
    .select('messagesWatermark')
    .where('source', '=', source)
    .where('finishedAt', 'is not', null)
    .where('messagesWatermark', 'is not', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.messagesWatermark ?? undefined;
}

export async function addPendingQuotes(db: Db, source: string, rows: { messageId: number; quotedSourceId: string }[]): Promise<void> {
  for (const part of chunks(rows, 300)) {
    await db
      .insertInto('importPendingQuotes')
      .values(part.map((r) => ({ source, ...r })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** Pending quotes that the given newly imported messages settle: the quoting message gets its quote. */
export async function settlePendingQuotes(db: Db, source: string, imported: Map<string, number>): Promise<number> {
  let settled = 0;
  for (const part of chunks([...imported.keys()])) {
    const rows = await db.selectFrom('importPendingQuotes').select(['messageId', 'quotedSourceId']).where('source', '=', source).where('quotedSourceId', 'in', part).execute();
    for (const r of rows) {
      const quoted = imported.get(r.quotedSourceId);
      if (quoted === undefined) continue;
      await db.updateTable('messages').set({ quotedMsgId: quoted }).where('id', '=', r.messageId).execute();
      await db.deleteFrom('importPendingQuotes').where('source', '=', source).where('messageId', '=', r.messageId).execute();
      settled++;
    }
  }
  return settled;
}

export async function listPendingQuotes(db: Db, source: string): Promise<{ messageId: number; quotedSourceId: string }[]> {
  return db.selectFrom('importPendingQuotes').select(['messageId', 'quotedSourceId']).where('source', '=', source).orderBy('messageId').execute();
}

/** Which of these target rows came from this source, and from which source id. */
export async function importedTargets(db: Db, source: string, sourceTable: string, targetIds: Iterable<number>): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  for (const part of chunks([...new Set(targetIds)])) {
    const rows = await db.selectFrom('importMap').select(['sourceId', 'targetId']).where('source', '=', source).where('sourceTable', '=', sourceTable).where('targetId', 'in', part).execute();
    for (const r of rows) found.set(r.targetId, r.sourceId);
  }
  return found;
}
