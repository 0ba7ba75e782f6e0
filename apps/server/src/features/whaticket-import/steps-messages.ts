/**
 * Messages, the bulk of a migration. A page of the source (by id: WhatsApp's message id), its
 * files copied first, then one transaction: a multi-row insert that leaves alone what is already
 * here, then the rows that were here are compared (a rerun refreshes what whaticket changed).
 * A message needs no map row: whaticket's Messages.id is the WhatsApp id, our providerId
 * (unique per connection). Only rows with a file are looked up before the insert, so a rerun
 * does not copy their files again. A quote of a message not imported yet waits in
 * importPendingQuotes until that one arrives.
 */
import type { Db } from '../../core/db/database.js';
import { eachPage, type ImportCtx } from './context.js';
import * as repo from './importer.repository.js';
import { addPendingQuotes, listPendingQuotes, lookup, settlePendingQuotes } from './map.repository.js';
import { copyMedia, mapLimit, type CopiedMedia } from './media.js';
import { mapMediaType, mediaFileName, toBool, toInt, toIso, toText } from './rules.js';
import type { SourceRow } from './source.js';

const MEDIA_CONCURRENCY = 16;
/** PostgreSQL's statistics of the growing messages table, refreshed every so many pages. */
const STATISTICS_EVERY_PAGES = 25;

type Known = { id: number; updatedAt: string };
type Place = { ticketId: number; whatsappId: number };
type FileResult = CopiedMedia | { missing: string } | undefined;

export async function importMessages(ctx: ImportCtx): Promise<void> {
  let pagesRead = 0;
  await eachPage(
    ctx,
    'Messages',
    'id',
    async (rows) => {
      if (++pagesRead % STATISTICS_EVERY_PAGES === 0) await repo.refreshStatistics(ctx.db, ctx.kind, ['messages', 'importPendingQuotes']);
      for (const row of rows) {
        const updatedAt = toIso(row.updatedAt, ctx.offset);
        if (!ctx.messagesWatermark || updatedAt > ctx.messagesWatermark) ctx.messagesWatermark = updatedAt;
      }
      const placed = await place(ctx, rows);
      const withFile = rows.filter((r) => placed.has(toText(r.id)) && mediaFileName(toText(r.mediaUrl) || null));
      const knownWithFile = await findHere(ctx.db, withFile, placed, (r) => toText(r.id));
      const candidates = rows.filter((r) => placed.has(toText(r.id)) && !knownWithFile.has(toText(r.id)));
      const files = await mapLimit(candidates, MEDIA_CONCURRENCY, (row) => mediaOf(ctx, row));
      await ctx.batch(async (db) => {
        for (const row of rows) if (!placed.has(toText(row.id))) ctx.report.skipped('Messages', toText(row.id), 'missing-ticket', `ticket #${toText(row.ticketId)} was not imported`);
        const inserted = await insertNew(ctx, db, candidates, files, placed);
        const notNew = rows.filter((r) => placed.has(toText(r.id)) && !inserted.has(toText(r.id)));
        const here = new Map([
          ...knownWithFile,
          ...(await findHere(
            db,
            notNew.filter((r) => !knownWithFile.has(toText(r.id))),
            placed,
            (r) => toText(r.id),
          )),
        ]);
        await refreshKnown(ctx, db, notNew, here);
        const all = new Map([...inserted, ...[...here].map(([k, v]) => [k, v.id] as const)]);
        await settlePendingQuotes(db, ctx.key, all);
      });
    },
    ctx.messagesSince,
  );
  await reportUnsettledQuotes(ctx);
}

/** Each message's ticket here and that ticket's connection; absent: its ticket was not imported. */
async function place(ctx: ImportCtx, rows: SourceRow[]): Promise<Map<string, Place>> {
  const tickets = await lookup(
    ctx.db,
    ctx.key,
    'Tickets',
    rows.map((r) => toText(r.ticketId)),
  );
  const connections = await repo.ticketConnections(
    ctx.db,
    [...tickets.values()].map((t) => t.targetId),
  );
  const placed = new Map<string, Place>();
  for (const row of rows) {
    const ticket = tickets.get(toText(row.ticketId));
    const whatsappId = ticket ? connections.get(ticket.targetId) : undefined;
    if (ticket && whatsappId !== undefined) placed.set(toText(row.id), { ticketId: ticket.targetId, whatsappId });
  }
  return placed;
}

/** The messages here with the WhatsApp ids `pick` gives (the row's own, or the one it quotes), on the row's connection. */
async function findHere(db: Db, rows: SourceRow[], placed: Map<string, Place>, pick: (row: SourceRow) => string): Promise<Map<string, Known>> {
  const byConnection = new Map<number, string[]>();
  for (const row of rows) {
    const where = placed.get(toText(row.id));
    const id = pick(row);
    if (where && id) byConnection.set(where.whatsappId, [...(byConnection.get(where.whatsappId) ?? []), id]);
  }
  const found = new Map<string, Known>();
  for (const [whatsappId, ids] of byConnection) for (const [providerId, row] of await repo.messagesByProviderIds(db, whatsappId, ids)) found.set(`${whatsappId}:${providerId}`, row);
  // Keyed by source id for the row's own id (one connection per row).
  const out = new Map<string, Known>();
  for (const row of rows) {
    const where = placed.get(toText(row.id));
    const hit = where ? found.get(`${where.whatsappId}:${pick(row)}`) : undefined;
    if (hit) out.set(pick(row), hit);
  }
  return out;
}

async function mediaOf(ctx: ImportCtx, row: SourceRow): Promise<FileResult> {
  const name = mediaFileName(toText(row.mediaUrl) || null);
  if (!name) return undefined;
  if ('unsafe' in name) return { missing: `media '${name.unsafe}' is not a plain file name of the public folder: not copied` };
  if (!ctx.mediaFrom) return { missing: `media ${name.name} not copied: no --media folder given` };
  const copied = await copyMedia({ from: ctx.mediaFrom, mediaDir: ctx.mediaDir, fileName: name.name, key: ctx.key, messageId: toText(row.id), dryRun: ctx.dryRun });
  return copied ?? { missing: `media file ${name.name} is not in ${ctx.mediaFrom}: the message is kept without it` };
}

/** New messages in one multi-row insert; returns source id → new id (rows already here are left out). */
async function insertNew(ctx: ImportCtx, db: Db, rows: SourceRow[], files: FileResult[], placed: Map<string, Place>): Promise<Map<string, number>> {
  if (!rows.length) return new Map();
  const quotedRows = rows.filter((r) => toText(r.quotedMsgId));
  const quoted = await findHere(db, quotedRows, placed, (r) => toText(r.quotedMsgId));
  const contacts = await lookup(
    db,
    ctx.key,
    'Contacts',
    rows.filter((r) => r.contactId !== null && r.contactId !== undefined).map((r) => toText(r.contactId)),
  );
  const inserts: repo.MessageInsert[] = [];
  const notes: { id: string; file: { missing: string } }[] = [];
  rows.forEach((row, i) => {
    const id = toText(row.id);
    const where = placed.get(id) as Place;
    const file = files[i];
    const media = file && !('missing' in file) ? file : undefined;
    if (file && 'missing' in file) notes.push({ id, file });
    const name = mediaFileName(toText(row.mediaUrl) || null);
    inserts.push({
      ticketId: where.ticketId,
      whatsappId: where.whatsappId,
      providerId: id,
      contactId: row.contactId === null || row.contactId === undefined ? null : (contacts.get(toText(row.contactId))?.targetId ?? null),
      body: toText(row.body),
      fromMe: toBool(row.fromMe),
      read: toBool(row.read),
      ack: Math.min(4, Math.max(0, toInt(row.ack))),
      mediaType: mapMediaType(toText(row.mediaType) || null, Boolean(name)),
      mediaPath: media?.relative ?? null,
      mediaName: media && name && 'name' in name ? name.name : null,
      mediaSize: media?.size ?? null,
      quotedMsgId: quoted.get(toText(row.quotedMsgId))?.id ?? null,
      isDeleted: toBool(row.isDeleted),
      createdAt: toIso(row.createdAt, ctx.offset),
      updatedAt: toIso(row.updatedAt, ctx.offset),
    });
  });
  const created = await repo.insertMessages(db, inserts);
  const inserted = new Map<string, number>();
  const pending: { messageId: number; quotedSourceId: string }[] = [];
  for (const data of inserts) {
    const id = created.get(`${data.whatsappId}:${data.providerId}`);
    if (id === undefined) continue;
    inserted.set(data.providerId, id);
    ctx.report.add('Messages', 'imported');
  }
  for (const { id, file } of notes) if (inserted.has(id)) ctx.report.changed('Messages', id, file.missing.startsWith("media '") ? 'media-unsafe-name' : 'media-missing', file.missing);
  // Quotes inside this page at once; the others wait for their message.
  for (const row of quotedRows) {
    const messageId = inserted.get(toText(row.id));
    const quotedSourceId = toText(row.quotedMsgId);
    if (messageId === undefined || quoted.has(quotedSourceId)) continue;
    const inPage = inserted.get(quotedSourceId);
    if (inPage !== undefined) await repo.setQuoted(db, messageId, inPage);
    else pending.push({ messageId, quotedSourceId });
  }
  await addPendingQuotes(db, ctx.key, pending);
  return inserted;
}

/**
 * Already here (an earlier run, or this server's own copy of that WhatsApp message): a message
 * changed in whaticket since (ack, read, deleted) is refreshed when whaticket's copy is newer.
 */
async function refreshKnown(ctx: ImportCtx, db: Db, rows: SourceRow[], here: Map<string, Known>): Promise<void> {
  for (const row of rows) {
    const known = here.get(toText(row.id));
    if (!known) continue;
    const updatedAt = toIso(row.updatedAt, ctx.offset);
    if (updatedAt <= known.updatedAt) {
      ctx.report.add('Messages', 'existing');
      continue;
    }
    await repo.refreshMessage(db, known.id, { ack: toInt(row.ack), read: toBool(row.read), isDeleted: toBool(row.isDeleted), body: toText(row.body), updatedAt });
    ctx.report.add('Messages', 'updated');
  }
}

/** Quotes whose message never came (deleted in whaticket, or its ticket skipped): the message is kept without its quote. */
async function reportUnsettledQuotes(ctx: ImportCtx): Promise<void> {
  const pending = await listPendingQuotes(ctx.db, ctx.key);
  const sources = await repo.providerIdsOf(
    ctx.db,
    pending.map((p) => p.messageId),
  );
  for (const p of pending) {
    ctx.report.changed('Messages', sources.get(p.messageId) ?? String(p.messageId), 'quoted-missing', `quotes message ${p.quotedSourceId}, which is not in the import: shown without its quote`);
  }
}
