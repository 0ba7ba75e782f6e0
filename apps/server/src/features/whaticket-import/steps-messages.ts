/**
 * Messages, the bulk of a migration: a page of the source (by id, WhatsApp's message id), its
 * files copied first, then one transaction with a multi-row insert. A message needs no map row:
 * whaticket's Messages.id is the WhatsApp message id, which is our providerId (unique per
 * connection), so a rerun finds what is here by it. A quote of a message not imported yet waits in importPendingQuotes until that one arrives.
 */
import type { Db } from '../../core/db/database.js';
import { eachPage, type ImportCtx } from './context.js';
import * as repo from './importer.repository.js';
import { addPendingQuotes, listPendingQuotes, lookup, settlePendingQuotes } from './map.repository.js';
import { copyMedia, mapLimit, type CopiedMedia } from './media.js';
import { mapMediaType, mediaFileName, toBool, toInt, toIso, toText } from './rules.js';
import type { SourceRow } from './source.js';

const MEDIA_CONCURRENCY = 16;

export async function importMessages(ctx: ImportCtx): Promise<void> {
  await eachPage(ctx, 'Messages', 'id', async (rows) => {
    const placed = await place(ctx, rows);
    const known = new Map<string, Known>();
    for (const [whatsappId, providerIds] of byConnection(rows, placed)) {
      for (const [providerId, row] of await repo.messagesByProviderIds(ctx.db, whatsappId, providerIds)) known.set(providerId, row);
    }
    const fresh = rows.filter((r) => placed.has(toText(r.id)) && !known.has(toText(r.id)));
    const files = await mapLimit(fresh, MEDIA_CONCURRENCY, (row) => mediaOf(ctx, row));
    await ctx.batch(async (db) => {
      for (const row of rows) if (!placed.has(toText(row.id))) ctx.report.skipped('Messages', toText(row.id), 'missing-ticket', `ticket #${toText(row.ticketId)} was not imported`);
      await refreshKnown(ctx, db, rows, known);
      if (fresh.length) await insertFresh(ctx, db, fresh, files, placed);
    });
  });
  await reportUnsettledQuotes(ctx);
}

type Known = { id: number; updatedAt: string };
type Place = { ticketId: number; whatsappId: number };

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

/** The source ids (WhatsApp message ids) per connection. */
function byConnection(rows: SourceRow[], placed: Map<string, Place>, pick: (row: SourceRow) => string = (r) => toText(r.id)): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const row of rows) {
    const where = placed.get(toText(row.id));
    const id = pick(row);
    if (!where || !id) continue;
    out.set(where.whatsappId, [...(out.get(where.whatsappId) ?? []), id]);
  }
  return out;
}

type FileResult = CopiedMedia | { missing: string } | undefined;

async function mediaOf(ctx: ImportCtx, row: SourceRow): Promise<FileResult> {
  const name = mediaFileName(toText(row.mediaUrl) || null);
  if (!name) return undefined;
  if ('unsafe' in name) return { missing: `media '${name.unsafe}' is not a plain file name of the public folder: not copied` };
  if (!ctx.mediaFrom) return { missing: `media ${name.name} not copied: no --media folder given` };
  const copied = await copyMedia({ from: ctx.mediaFrom, mediaDir: ctx.mediaDir, fileName: name.name, key: ctx.key, messageId: toText(row.id), dryRun: ctx.dryRun });
  return copied ?? { missing: `media file ${name.name} is not in ${ctx.mediaFrom}: the message is kept without it` };
}

/**
 * Already here (an earlier run, or this server's own copy of that WhatsApp message): a message
 * changed in whaticket since (ack, read, deleted) is refreshed when whaticket's copy is newer.
 */
async function refreshKnown(ctx: ImportCtx, db: Db, rows: SourceRow[], known: Map<string, Known>): Promise<void> {
  for (const row of rows) {
    const here = known.get(toText(row.id));
    if (!here) continue;
    const updatedAt = toIso(row.updatedAt, ctx.offset);
    if (updatedAt <= here.updatedAt) {
      ctx.report.add('Messages', 'existing');
      continue;
    }
    await repo.refreshMessage(db, here.id, { ack: toInt(row.ack), read: toBool(row.read), isDeleted: toBool(row.isDeleted), body: toText(row.body), updatedAt });
    ctx.report.add('Messages', 'updated');
  }
}

async function insertFresh(ctx: ImportCtx, db: Db, rows: SourceRow[], files: FileResult[], placed: Map<string, Place>): Promise<void> {
  const contacts = await lookup(
    db,
    ctx.key,
    'Contacts',
    rows.filter((r) => r.contactId !== null && r.contactId !== undefined).map((r) => toText(r.contactId)),
  );
  const quoted = new Map<string, number>();
  for (const [whatsappId, providerIds] of byConnection(rows, placed, (r) => toText(r.quotedMsgId))) {
    for (const [providerId, row] of await repo.messagesByProviderIds(db, whatsappId, providerIds)) quoted.set(`${whatsappId}:${providerId}`, row.id);
  }
  const inserts: repo.MessageInsert[] = [];
  const sourceIds: string[] = [];
  rows.forEach((row, i) => {
    const id = toText(row.id);
    const where = placed.get(id);
    if (!where) return;
    const { whatsappId } = where;
    const file = files[i];
    let media: CopiedMedia | undefined;
    if (file && 'missing' in file) ctx.report.changed('Messages', id, file.missing.startsWith("media '") ? 'media-unsafe-name' : 'media-missing', file.missing);
    else media = file;
    let contactId: number | null = null;
    if (row.contactId !== null && row.contactId !== undefined) contactId = contacts.get(toText(row.contactId))?.targetId ?? null;
    const name = mediaFileName(toText(row.mediaUrl) || null);
    inserts.push({
      ticketId: where.ticketId,
      whatsappId,
      providerId: id,
      contactId,
      body: toText(row.body),
      fromMe: toBool(row.fromMe),
      read: toBool(row.read),
      ack: Math.min(4, Math.max(0, toInt(row.ack))),
      mediaType: mapMediaType(toText(row.mediaType) || null, Boolean(name)),
      mediaPath: media?.relative ?? null,
      mediaName: media && name && 'name' in name ? name.name : null,
      mediaSize: media?.size ?? null,
      quotedMsgId: quoted.get(`${whatsappId}:${toText(row.quotedMsgId)}`) ?? null,
      isDeleted: toBool(row.isDeleted),
      createdAt: toIso(row.createdAt, ctx.offset),
      updatedAt: toIso(row.updatedAt, ctx.offset),
    });
    sourceIds.push(id);
  });
  const inserted = await repo.insertMessages(db, inserts);
  const bySource = new Map<string, number>();
  const pending: { messageId: number; quotedSourceId: string }[] = [];
  const rowById = new Map(rows.map((r) => [toText(r.id), r]));
  for (const [i, data] of inserts.entries()) {
    const sourceId = sourceIds[i] as string;
    let targetId = inserted.get(`${data.whatsappId}:${data.providerId}`);
    if (targetId === undefined) {
      // The connection already had this WhatsApp id (a message this server received itself): linked to it.
      targetId = await repo.findMessageId(db, data.whatsappId, data.providerId);
      if (targetId === undefined) continue;
      ctx.report.add('Messages', 'existing');
    } else {
      ctx.report.add('Messages', 'imported');
      const quotedSource = toText(rowById.get(sourceId)?.quotedMsgId);
      if (quotedSource && data.quotedMsgId === null) pending.push({ messageId: targetId, quotedSourceId: quotedSource });
    }
    bySource.set(sourceId, targetId);
  }
  // Quotes inside this page, then earlier pages' quotes of these messages.
  const stillPending = pending.filter((p) => !bySource.has(p.quotedSourceId));
  for (const p of pending) {
    const quotedId = bySource.get(p.quotedSourceId);
    if (quotedId !== undefined) await repo.setQuoted(db, p.messageId, quotedId);
  }
  await settlePendingQuotes(db, ctx.key, bySource);
  await addPendingQuotes(db, ctx.key, stillPending);
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
