/**
 * What a contact or a ticket carries beside its own row: the contacts' extra info and labels, and
 * the tickets' labels, read in one statement whatever their number. A payload of tickets with
 * their contacts is then two statements (the rows, then this) instead of five, which counts on
 * each batch of inbound messages and each page of a list.
 */
import type { TContact } from '@zapdesk/shared/schemas';
import { sql } from 'kysely';
import type { Db } from '../../core/db/database.js';
import type { LabelRef } from '../labels/labels.repository.js';

export type ExtraInfo = TContact['extraInfo'][number];
export type Details = { extraInfo: Map<number, ExtraInfo[]>; contactLabels: Map<number, LabelRef[]>; ticketLabels: Map<number, LabelRef[]> };

function push<T>(map: Map<number, T[]>, owner: number, item: T): void {
  const list = map.get(owner);
  if (list) list.push(item);
  else map.set(owner, [item]);
}

/**
 * Extra info in the order it was added; labels by name, then id. A contact or ticket with none is
 * absent from its map. `labelsOnly`: the contacts' extra info is not read (its map stays empty).
 */
export async function readDetails(db: Db, owners: { contactIds: readonly number[]; ticketIds?: readonly number[]; labelsOnly?: boolean }): Promise<Details> {
  const contactIds = [...new Set(owners.contactIds)];
  const ticketIds = [...new Set(owners.ticketIds ?? [])];
  const details: Details = { extraInfo: new Map(), contactLabels: new Map(), ticketLabels: new Map() };
  if (contactIds.length === 0 && ticketIds.length === 0) return details;
  // 'kind' tells the three parts apart; 'text' is an extra info's value or a label's colour;
  // 'sortKey' orders the labels by name (the extra info by id alone).
  const extraInfo = db
    .selectFrom('contactExtraInfo')
    .select([
      sql.lit<string>('e').as('kind'),
      'contactExtraInfo.contactId as ownerId',
      'contactExtraInfo.id as id',
      'contactExtraInfo.name as name',
      'contactExtraInfo.value as text',
      sql.lit<string>('').as('sortKey'),
    ])
    .where('contactExtraInfo.contactId', 'in', contactIds);
  const contactLabels = db
    .selectFrom('contactLabels')
    .innerJoin('labels', 'labels.id', 'contactLabels.labelId')
    .select([sql.lit<string>('c').as('kind'), 'contactLabels.contactId as ownerId', 'labels.id as id', 'labels.name as name', 'labels.color as text', 'labels.name as sortKey'])
    .where('contactLabels.contactId', 'in', contactIds);
  const ticketLabels = db
    .selectFrom('ticketLabels')
    .innerJoin('labels', 'labels.id', 'ticketLabels.labelId')
    .select([sql.lit<string>('t').as('kind'), 'ticketLabels.ticketId as ownerId', 'labels.id as id', 'labels.name as name', 'labels.color as text', 'labels.name as sortKey'])
    .where('ticketLabels.ticketId', 'in', ticketIds);
  const parts = [...(contactIds.length > 0 && !owners.labelsOnly ? [extraInfo] : []), ...(contactIds.length > 0 ? [contactLabels] : []), ...(ticketIds.length > 0 ? [ticketLabels] : [])];
  const union = parts.slice(1).reduce((all, part) => all.unionAll(part), parts[0] ?? ticketLabels);
  const rows = await db.selectFrom(union.as('d')).selectAll().orderBy('d.kind').orderBy('d.sortKey').orderBy('d.id').execute();
  for (const r of rows) {
    if (r.kind === 'e') push(details.extraInfo, r.ownerId, { id: r.id, name: r.name, value: r.text });
    else push(r.kind === 'c' ? details.contactLabels : details.ticketLabels, r.ownerId, { id: r.id, name: r.name, color: r.text });
  }
  return details;
}
