/**
 * Tickets. Our rule: one open-or-pending ticket per contact and connection. When whaticket has
 * two, the one updated last stays as it is and the other is closed (reported).
 */
import type { Db } from '../../core/db/database.js';
import { eachPage, type ImportCtx } from './context.js';
import * as repo from './importer.repository.js';
import { importedTargets, insertMaps, lookup, lookupAll, touchMap } from './map.repository.js';
import { mapStatus, toBool, toInt, toIso, toText } from './rules.js';
import type { SourceRow } from './source.js';

type Refs = { users: Map<string, number>; queues: Map<string, number>; whatsapps: Map<string, number>; fallbackWhatsapp: number | undefined };

export async function importTickets(ctx: ImportCtx): Promise<void> {
  const refs: Refs = {
    users: await lookupAll(ctx.db, ctx.key, 'Users'),
    queues: await lookupAll(ctx.db, ctx.key, 'Queues'),
    whatsapps: await lookupAll(ctx.db, ctx.key, 'Whatsapps'),
    fallbackWhatsapp: (await repo.defaultWhatsappId(ctx.db)) ?? (await repo.firstWhatsappId(ctx.db)),
  };
  await eachPage(ctx, 'Tickets', 'id', (rows) =>
    ctx.batch(async (db) => {
      const mapped = await lookup(
        db,
        ctx.key,
        'Tickets',
        rows.map((r) => String(r.id)),
      );
      const contacts = await lookup(
        db,
        ctx.key,
        'Contacts',
        rows.map((r) => toText(r.contactId)),
      );
      for (const row of rows) {
        const id = String(row.id);
        const known = mapped.get(id);
        if (known) {
          const data = resolve(ctx, refs, row, id, false);
          if (known.sourceUpdatedAt !== data.updatedAt) await refresh(ctx, db, id, known.targetId, data);
          else ctx.report.add('Tickets', 'existing');
          continue;
        }
        // Skips first, so a skipped row is not also reported as changed.
        const contact = contacts.get(toText(row.contactId));
        if (!contact) {
          ctx.report.skipped(
            'Tickets',
            id,
            'missing-contact',
            row.contactId == null
              ? 'the ticket has no contact: the ticket and its messages are left out'
              : `contact #${toText(row.contactId)} was not imported (deleted, or no number): the ticket and its messages are left out`,
          );
          continue;
        }
        if (refs.whatsapps.get(toText(row.whatsappId)) === undefined && refs.fallbackWhatsapp === undefined) {
          ctx.report.skipped('Tickets', id, 'missing-whatsapp', 'no connection to attach it to (the source has none)');
          continue;
        }
        const data = resolve(ctx, refs, row, id, true);
        if (data.whatsappId === undefined) continue;
        const ticket: repo.TicketInsert = { ...data, whatsappId: data.whatsappId, contactId: contact.targetId };
        if (ticket.status !== 'closed') await settleActive(ctx, db, id, ticket);
        const targetId = await repo.insertTicket(db, ticket);
        ctx.report.add('Tickets', 'imported');
        // Mapped at once: the next ticket's conflict check must know where this one came from.
        await insertMaps(db, ctx.key, [{ sourceTable: 'Tickets', sourceId: id, targetId, sourceUpdatedAt: data.updatedAt }]);
      }
    }),
  );
}

type Resolved = Omit<repo.TicketInsert, 'whatsappId' | 'contactId'> & { whatsappId: number | undefined };

/** The ticket's fields our way; `report` false on a rerun's refresh (the first run reported them). */
function resolve(ctx: ImportCtx, refs: Refs, row: SourceRow, id: string, report: boolean): Resolved {
  const note = (rule: Parameters<ImportCtx['report']['changed']>[2], detail: string) => report && ctx.report.changed('Tickets', id, rule, detail);
  const mapped = mapStatus(toText(row.status));
  let status = mapped.status;
  const known = mapped.known;
  if (!known) note('status-unknown', `status '${toText(row.status)}' imported as closed`);
  let userId: number | null = null;
  if (row.userId !== null && row.userId !== undefined) {
    userId = refs.users.get(toText(row.userId)) ?? null;
    if (userId === null) {
      note('missing-user', `user #${toText(row.userId)} is not in the source: no owner${status === 'open' ? '; open becomes pending so the queue sees it' : ''}`);
      if (status === 'open') status = 'pending';
    }
  } else if (status === 'open') {
    note('missing-user', 'open with no owner: imported as pending so the queue sees it');
    status = 'pending';
  }
  let queueId: number | null = null;
  if (row.queueId !== null && row.queueId !== undefined) {
    queueId = refs.queues.get(toText(row.queueId)) ?? null;
    if (queueId === null) note('missing-queue', `queue #${toText(row.queueId)} is not in the source: no queue`);
  }
  let whatsappId = row.whatsappId === null || row.whatsappId === undefined ? undefined : refs.whatsapps.get(toText(row.whatsappId));
  if (whatsappId === undefined && refs.fallbackWhatsapp !== undefined) {
    whatsappId = refs.fallbackWhatsapp;
    note(
      'missing-whatsapp',
      row.whatsappId === null || row.whatsappId === undefined
        ? 'no connection in whaticket: attached to the default connection'
        : `connection #${toText(row.whatsappId)} is not in the source: attached to the default connection`,
    );
  }
  return {
    status,
    userId,
    queueId,
    whatsappId,
    lastMessage: toText(row.lastMessage),
    unreadMessages: Math.max(0, toInt(row.unreadMessages)),
    isGroup: toBool(row.isGroup),
    createdAt: toIso(row.createdAt, ctx.offset),
    updatedAt: toIso(row.updatedAt, ctx.offset),
  };
}

/** Before an active ticket goes in: an active one for the same contact and connection yields, or this one is closed. */
async function settleActive(ctx: ImportCtx, db: Db, id: string, ticket: repo.TicketInsert): Promise<void> {
  const other = await repo.findActiveTicket(db, ticket.contactId, ticket.whatsappId);
  if (!other) return;
  const otherSource = (await importedTargets(db, ctx.key, 'Tickets', [other.id])).get(other.id);
  const otherName = otherSource !== undefined ? `ticket #${otherSource}` : `this server's ticket ${other.id}`;
  if (otherSource !== undefined && ticket.updatedAt > other.updatedAt) {
    await repo.closeTicket(db, other.id);
    ctx.report.changed('Tickets', otherSource, 'duplicate-active-ticket', `ticket #${id} of the same contact and connection is newer and stays ${ticket.status}: this one is closed`);
    return;
  }
  ctx.report.changed(
    'Tickets',
    id,
    'duplicate-active-ticket',
    `${otherName} of the same contact and connection is ${otherSource !== undefined ? 'newer' : 'already active here'}: this one (${ticket.status}) is imported closed`,
  );
  ticket.status = 'closed';
}

/** A rerun: the source changed this ticket since (status, owner, queue, unread): refreshed. */
async function refresh(ctx: ImportCtx, db: Db, id: string, targetId: number, data: Resolved): Promise<void> {
  let status = data.status;
  if (status !== 'closed') {
    const ref = await repo.findTicketRef(db, targetId);
    const other = ref ? await repo.findActiveTicket(db, ref.contactId, ref.whatsappId) : undefined;
    if (other && other.id !== targetId) {
      ctx.report.changed('Tickets', id, 'duplicate-active-ticket', `became ${status} in whaticket, but ticket ${other.id} of the same contact is active here: left closed`);
      status = 'closed';
    }
  }
  await repo.refreshTicket(db, targetId, { status, userId: data.userId, queueId: data.queueId, lastMessage: data.lastMessage, unreadMessages: data.unreadMessages, updatedAt: data.updatedAt });
  await touchMap(db, ctx.key, 'Tickets', id, data.updatedAt);
  ctx.report.add('Tickets', 'updated');
}
