/**
 * Messages, the bulk of a migration: a page of the source (by id, WhatsApp's message id), its
 * files copied first, then one transaction with a multi-row insert and the page's map rows.
 * A quote of a message not imported yet waits in importPendingQuotes until that one arrives.
 */
import type { Db } from '../../core/db/database.js';
import { eachPage, type ImportCtx } from './context.js';
import * as repo from './importer.repository.js';
import { addPendingQuotes, importedTargets, insertMaps, listPendingQuotes, lookup, settlePendingQuotes, touchMap, type MapWrite } from './map.repository.js';
import { copyMedia, mapLimit, type CopiedMedia } from './media.js';
import { mapMediaType, mediaFileName, toBool, toInt, toIso, toText } from './rules.js';
import type { SourceRow } from './source.js';

const MEDIA_CONCURRENCY = 16;

export async function importMessages(ctx: ImportCtx): Promise<void> {
  await eachPage(ctx, 'Messages', 'id', async (rows) => {
    const ids = rows.map((r) => toText(r.id));
    const mapped = await lookup(ctx.db, ctx.key, 'Messages', ids);
    const fresh = rows.filter((r) => !mapped.has(toText(r.id)));
    const files = await mapLimit(fresh, MEDIA_CONCURRENCY, (row) => mediaOf(ctx, row));
    await ctx.batch(async (db) => {
      await refreshKnown(ctx, db, rows, mapped);
      if (fresh.length) await insertFresh(ctx, db, fresh, files);
    });
  });
  await reportUnsettledQuotes(ctx);
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

/** A rerun: messages changed in whaticket since (ack, read, deleted, edited) are refreshed. */
async function refreshKnown(ctx: ImportCtx, db: Db, rows: SourceRow[], mapped: Map<string, { targetId: number; sourceUpdatedAt: string | null }>): Promise<void> {
  for (const row of rows) {
    const known = mapped.get(toText(row.id));
    if (!known) continue;
    const updatedAt = toIso(row.updatedAt, ctx.offset);
    if (known.sourceUpdatedAt === updatedAt) {
      ctx.report.add('Messages', 'existing');
      continue;
    }
    await repo.refreshMessage(db, known.targetId, { ack: toInt(row.ack), read: toBool(row.read), isDeleted: toBool(row.isDeleted), body: toText(row.body), updatedAt });
    await touchMap(db, ctx.key, 'Messages', toText(row.id), updatedAt);
    ctx.report.add('Messages', 'updated');
  }
}

async function insertFresh(ctx: ImportCtx, db: Db, rows: SourceRow[], files: FileResult[]): Promise<void> {
  const tickets = await lookup(
    db,
    ctx.key,
    'Tickets',
    rows.map((r) => toText(r.ticketId)),
  );
  const connections = await repo.ticketConnections(
    db,
    [...tickets.values()].map((t) => t.targetId),
  );
  const contacts = await lookup(
    db,
    ctx.key,
    'Contacts',
    rows.filter((r) => r.contactId !== null && r.contactId !== undefined).map((r) => toText(r.contactId)),
  );
  const quotedIds = rows.map((r) => toText(r.quotedMsgId)).filter(Boolean);
  const quoted = await lookup(db, ctx.key, 'Messages', quotedIds);
  const inserts: repo.MessageInsert[] = [];
  const sourceIds: string[] = [];
  rows.forEach((row, i) => {
    const id = toText(row.id);
    const ticket = tickets.get(toText(row.ticketId));
    const whatsappId = ticket ? connections.get(ticket.targetId) : undefined;
    if (!ticket || whatsappId === undefined) {
      ctx.report.skipped('Messages', id, 'missing-ticket', `ticket #${toText(row.ticketId)} was not imported`);
      return;
    }
    const file = files[i];
    let media: CopiedMedia | undefined;
    if (file && 'missing' in file) ctx.report.changed('Messages', id, file.missing.startsWith("media '") ? 'media-unsafe-name' : 'media-missing', file.missing);
    else media = file;
    let contactId: number | null = null;
    if (row.contactId !== null && row.contactId !== undefined) contactId = contacts.get(toText(row.contactId))?.targetId ?? null;
    const name = mediaFileName(toText(row.mediaUrl) || null);
    inserts.push({
      ticketId: ticket.targetId,
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
      quotedMsgId: quoted.get(toText(row.quotedMsgId))?.targetId ?? null,
      isDeleted: toBool(row.isDeleted),
      createdAt: toIso(row.createdAt, ctx.offset),
      updatedAt: toIso(row.updatedAt, ctx.offset),
    });
    sourceIds.push(id);
  });
  const inserted = await repo.insertMessages(db, inserts);
  const maps: MapWrite[] = [];
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
    maps.push({ sourceTable: 'Messages', sourceId, targetId, sourceUpdatedAt: data.updatedAt });
  }
  await insertMaps(db, ctx.key, maps);
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
  const sources = await importedTargets(
    ctx.db,
    ctx.key,
    'Messages',
    pending.map((p) => p.messageId),
  );
  for (const p of pending) {
    ctx.report.changed('Messages', sources.get(p.messageId) ?? String(p.messageId), 'quoted-missing', `quotes message ${p.quotedSourceId}, which is not in the import: shown without its quote`);
  }
}
