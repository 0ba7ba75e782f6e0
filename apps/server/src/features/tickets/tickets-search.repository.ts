/**
 * The ticket search: the tickets a user may see that hold every word of the search in a message
 * (not deleted) or whose contact's name, number or e-mail contains the search, newest change
 * first, with the list's filters. The cost follows the page, not the inbox:
 *
 * - a common word (in many of the tickets the user may see) is answered by walking those tickets
 *   in the page's order (an index on updatedAt, or the tab's own) and checking each ticket's
 *   messages for the words, stopping at the page; the walk looks at a bounded number of tickets;
 * - a rarer word, which the bounded walk does not fill a page with, is answered from its
 *   candidates: the full-text index's tickets (SQLite: the index alone, migration 018;
 *   PostgreSQL: its GIN index) and the tickets of matching contacts.
 *
 * The count is exact up to LIMITS.searchCountCap tickets; past that the answer says
 * `count: searchCountCap, countIsAtLeast: true` and the web app shows '1.000+'. Counting a word in
 * hundreds of thousands of tickets exactly costs a visit to each of them.
 */
import { foldText, LIMITS } from '@zapdesk/shared/domain';
import { searchWords, snippetAround } from '@zapdesk/shared/text-match';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, DbKind } from '../../core/db/database.js';
import { containsLike, pageWindow } from '../../core/db/sql-helpers.js';
import { contactIdsMatching } from '../contacts/contact-text-match.js';
import { columnRefs, filteredTickets, type TicketFilters, type TicketScope } from './tickets-list.repository.js';
import { loadTicketsByIds } from './tickets.repository.js';

/**
 * The walk checks at most this many of the user's tickets (the newest changed first): a page it
 * fills is a word in at least 1% (2% on PostgreSQL, where checking a ticket's messages computes
 * their text vectors) of them; a rarer word is answered from its candidates. It goes
 * past the first WALK_FIRST_ROWS only for a word it found in at least 1% of those.
 */
const WALK_ROWS = { sqlite: 2000, postgres: 1000 } as const;
const WALK_FIRST_ROWS = 200;

export type SearchOptions = {
  scope: TicketScope;
  filters: TicketFilters;
  pageNumber: number;
  /** Tests: a smaller cap, and one way forced. */
  countCap?: number;
  path?: 'walk' | 'candidates';
};

export type SearchPage = { tickets: Awaited<ReturnType<typeof loadTicketsByIds>>; count: number; countIsAtLeast?: true; hasMore: boolean };

type Search = { words: string[]; folded: string };

/** `ticket` holds the words: a message of it (not deleted) or its contact; `ticket` names a row with `id` and `contactId`. */
function holdsWords(kind: DbKind, ticket: string, search: Search): RawBuilder<SqlBool> {
  const id = sql.ref(`${ticket}.id`);
  const contact = sql<SqlBool>`exists (select 1 from contacts as c where c.id = ${sql.ref(`${ticket}.contactId`)} and ${containsLike(sql.ref('c.searchText'), search.folded)})`;
  // Through the messages of this one ticket (messages_ticketId_createdAt), never the word's whole
  // posting list: on PostgreSQL the text expression differs from the GIN index's so the planner
  // cannot pick it for a single ticket. The `offset 0` keeps PostgreSQL from turning the check into
  // one hashed pass over every message (its choice on a small database: 280 ms at 100,000
  // messages, against 35 ms for the walk's 1,000 tickets one by one).
  const message =
    kind === 'postgres'
      ? sql<SqlBool>`exists (select 1 from messages as m where m."ticketId" = ${id} and m."isDeleted" = 0
          and to_tsvector('simple', coalesce(m."searchText", '')) @@ to_tsquery('simple', ${tsQuery(search.words)}) offset 0)`
      : sql<SqlBool>`exists (select 1 from messages as m where m."ticketId" = ${id} and m."isDeleted" = 0 and has_words(m."searchText", ${search.words.join(' ')}))`;
  return sql<SqlBool>`(${contact} or ${message})`;
}

function tsQuery(words: string[]): string {
  return words.map((w) => `${w}:*`).join(' & ');
}

/** The tickets holding the words as one candidate set (contacts' tickets, plus the full-text index's), for `tickets.id`. */
function candidates(db: Db, kind: DbKind, search: Search): RawBuilder<SqlBool> {
  const matchingContacts = contactIdsMatching(kind, search.folded);
  if (kind === 'postgres') {
    // Each set computed once, as an array, and looked up through the primary key and the
    // contact index: left to itself, the planner underestimates a common word's thousands of
    // candidates and probes them for every visible ticket.
    const set = db
      .selectFrom('tickets as matched')
      .select('matched.id')
      .where(sql<SqlBool>`${sql.ref('matched.contactId')} = any(array${matchingContacts})`)
      .unionAll(
        db
          .selectFrom('messages')
          .select('messages.ticketId as id')
          .where('isDeleted', '=', 0)
          .where(sql<SqlBool>`to_tsvector('simple', ${sql.ref('searchText')}) @@ to_tsquery('simple', ${tsQuery(search.words)})`),
      );
    return sql<SqlBool>`${sql.ref('tickets.id')} = any(array(${set}))`;
  }
  // The full-text index's row id carries the ticket (migration 018).
  const query = search.words.map((w) => `"${w}"*`).join(' ');
  return sql<SqlBool>`${sql.ref('tickets.id')} in (select matched.id from tickets as matched where matched."contactId" in ${matchingContacts}
    union all select rowid >> 32 from message_words where message_words match ${query})`;
}

export async function searchTickets(db: Db, kind: DbKind, options: SearchOptions): Promise<SearchPage> {
  const search: Search = { words: searchWords(options.filters.searchParam ?? ''), folded: foldText(options.filters.searchParam ?? '').trim() };
  const cap = options.countCap ?? LIMITS.searchCountCap;
  const { limit, offset } = pageWindow(options.pageNumber);
  let page: Found | undefined;
  if (options.path !== 'candidates') page = await byWalk(db, kind, options, search, { offset, limit, cap, rows: options.path === 'walk' ? undefined : WALK_ROWS[kind] });
  page ??= await byCandidates(db, kind, options, search, { offset, limit, cap });

  const tickets = await loadTicketsByIds(db, page.ids);
  // A search result shows the words it matched in context: the newest matching message of each ticket on the page.
  const bodies = await matchingMessageBodies(db, kind, page.ids, search.words);
  for (const ticket of tickets) {
    const body = bodies.get(ticket.id);
    if (body) ticket.match = snippetAround(body, search.words);
  }
  return { tickets, count: page.count, ...(page.atLeast ? { countIsAtLeast: true as const } : {}), hasMore: page.hasMore };
}

type Found = { ids: number[]; count: number; atLeast: boolean; hasMore: boolean };

/**
 * The walk: the tickets the user may see, in the page's order, each checked for the words until
 * the page and the count's cap are found (it stops there). It looks at WALK_FIRST_ROWS tickets,
 * then, if it found at least one in a hundred of them holding the words, on to WALK_ROWS. The
 * count is exact when the walk saw every ticket the user may see; otherwise it is the tickets
 * found, an 'at least'. Undefined when the walk did not fill the page: the word is rare among
 * these tickets, and its candidates are few.
 */
async function byWalk(db: Db, kind: DbKind, options: SearchOptions, search: Search, at: { offset: number; limit: number; cap: number; rows: number | undefined }): Promise<Found | undefined> {
  const need = at.offset + at.limit + 1;
  const wanted = Math.max(need, at.cap + 1);
  // SQLite: the filters are left bare so that the walk follows the order's index (tickets_updatedAt_id)
  // rather than gathering the user's tickets from the queue and user indexes and sorting them all.
  const visible = () => filteredTickets(db, options.scope, options.filters, kind === 'sqlite' ? columnRefs.bare : columnRefs.indexed);
  const walk = async (skip: number, rows: number | undefined, most: number): Promise<number[]> => {
    let ordered = visible().select(['tickets.id', 'tickets.contactId']).orderBy('tickets.updatedAt', 'desc').orderBy('tickets.id', 'desc');
    if (rows !== undefined) ordered = ordered.limit(rows).offset(skip);
    // Read in the walk's order (a subquery with a limit is neither flattened nor sorted again).
    const found = await db
      .selectFrom(ordered.as('w'))
      .select('w.id')
      .where(holdsWords(kind, 'w', search))
      .limit(most)
      .execute();
    return found.map((r) => r.id);
  };
  const result = (ids: number[], seenAll: boolean): Found => {
    const page = ids.slice(at.offset, at.offset + at.limit);
    if (ids.length === wanted) return { ids: page, count: wanted - 1, atLeast: true, hasMore: true };
    return { ids: page, count: ids.length, atLeast: !seenAll, hasMore: ids.length > at.offset + at.limit };
  };
  if (at.rows === undefined) return result(await walk(0, undefined, wanted), true);
  const first = Math.min(WALK_FIRST_ROWS, at.rows);
  let ids = await walk(0, first, wanted);
  let walked = first;
  if (ids.length < wanted && ids.length * 100 >= first && at.rows > first) {
    ids = ids.concat(await walk(first, at.rows - first, wanted - ids.length));
    walked = at.rows;
  }
  if (ids.length === wanted) return result(ids, false);
  // Fewer than wanted: did the walk see every ticket the user may see?
  const visibleCount = Number(
    (
      await db
        .selectFrom(visible().select('tickets.id').limit(walked).as('v'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  if (visibleCount < walked) return result(ids, true);
  return ids.length >= need ? result(ids, false) : undefined;
}

/** The candidates: every ticket holding the words, through the indexes, then the filters; page and count in one pass. */
async function byCandidates(db: Db, kind: DbKind, options: SearchOptions, search: Search, at: { offset: number; limit: number; cap: number }): Promise<Found> {
  // The search starts from its candidates, not from an index over every ticket of a status or of
  // unassigned ones probed against them: on SQLite the filters are left bare (PostgreSQL's planner
  // weighs that itself, and has no unary + for text).
  const base = filteredTickets(db, options.scope, options.filters, kind === 'sqlite' ? columnRefs.bare : columnRefs.indexed).where(candidates(db, kind, search));
  const rows = await base
    .select((eb) => ['id', eb.fn.countAll<number>().over().as('n')])
    .orderBy('updatedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(at.limit)
    .offset(at.offset)
    .execute();
  const n = rows.length ? Number(rows[0]?.n) : Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  // Past the cap the count says 'at least' as the walk's does (never less than the pages hold).
  const atLeast = n > at.cap;
  return { ids: rows.map((r) => r.id), count: atLeast ? Math.max(at.cap, at.offset + rows.length) : n, atLeast, hasMore: n > at.offset + rows.length };
}

/**
 * The newest message of each of these tickets (a page) that holds every word, read through each
 * ticket's messages (messages_ticketId_createdAt), not the word's whole posting list.
 */
async function matchingMessageBodies(db: Db, kind: DbKind, ticketIds: number[], words: string[]): Promise<Map<number, string>> {
  if (ticketIds.length === 0) return new Map();
  const holds =
    kind === 'postgres'
      ? sql<SqlBool>`to_tsvector('simple', coalesce(${sql.ref('searchText')}, '')) @@ to_tsquery('simple', ${tsQuery(words)})`
      : sql<SqlBool>`has_words(${sql.ref('searchText')}, ${words.join(' ')})`;
  const newest = db
    .selectFrom('messages')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('ticketId', 'in', ticketIds)
    .where('isDeleted', '=', 0)
    .where(holds)
    .groupBy('ticketId');
  const rows = await db.selectFrom('messages').select(['ticketId', 'body']).where('id', 'in', newest).execute();
  return new Map(rows.map((r) => [r.ticketId, r.body]));
}
