/**
 * bench:load's correctness checks at the seed's size: exact page size, an accent-free search
 * finds the accented name, a search keeps the queue and assignment rules, reading a ticket with
 * nothing unread writes nothing (against a control that does write).
 */
import type SQLite from 'better-sqlite3';
import { TAB_COUNT_CAP } from '@zapdesk/server/features/tickets/tickets-tab.repository';
import { listPath, type User } from './load-cases.js';

export type Check = { name: string; pass: boolean; detail: string };
type TicketPage = { tickets: { id: number; userId: number | null; queueId: number | null; contact: { name: string } }[]; count: number; hasMore: boolean };

export async function correctnessChecks(options: {
  get: <T>(user: 'agent' | 'admin', url: string) => Promise<T>;
  query: <T>(text: string) => Promise<T[]>;
  raw: SQLite.Database | undefined;
  agent: User;
  longTicket: { id: number };
  unreadTicket: { id: number };
}): Promise<Check[]> {
  const { get, query, raw, agent, longTicket, unreadTicket } = options;
  const checks: Check[] = [];
  const check = (name: string, pass: boolean, detail: string) => checks.push({ name, pass, detail });

  const [openCount] = await query<{ n: number }>(`select count(*) as n from tickets where status = 'open'`);
  const page1 = await get<TicketPage>('admin', `/api/tickets?status=open&showAll=true&pageNumber=1`);
  const page2 = await get<TicketPage>('admin', `/api/tickets?status=open&showAll=true&pageNumber=2`);
  const overlap = page1.tickets.filter((t) => page2.tickets.some((u) => u.id === t.id)).length;
  check(
    'a page holds exactly its page size',
    // A tab's count is exact up to TAB_COUNT_CAP and says TAB_COUNT_CAP ('that many or more') past it.
    page1.tickets.length === 20 && page2.tickets.length === 20 && overlap === 0 && page1.count === Math.min(Number(openCount?.n), TAB_COUNT_CAP) && page1.hasMore,
    `page 1: ${page1.tickets.length} tickets, page 2: ${page2.tickets.length}, overlap ${overlap}, count ${page1.count} of ${openCount?.n} open (exact up to ${TAB_COUNT_CAP})`,
  );

  const joao = await get<TicketPage>('admin', `/api/tickets?searchParam=joao&showAll=true&pageNumber=1`);
  const joaoContacts = await get<{ contacts: { name: string }[] }>('admin', `/api/contacts?searchParam=joao&pageNumber=1`);
  check(
    "a search for 'joao' finds 'João'",
    joao.tickets.length > 0 && joao.tickets.some((t) => t.contact.name.includes('João')) && joaoContacts.contacts.length > 0 && joaoContacts.contacts.every((c) => /jo[aã]o/i.test(c.name)),
    `tickets: ${joao.count} (first: ${joao.tickets[0]?.contact.name ?? '-'}); contacts: ${joaoContacts.contacts.length} on page 1 (first: ${joaoContacts.contacts[0]?.name ?? '-'})`,
  );

  const leaks: string[] = [];
  let seen = 0;
  for (const showAll of ['false', 'true']) {
    for (let pageNumber = 1; pageNumber <= 3; pageNumber += 1) {
      const page = await get<TicketPage>('agent', listPath(agent, showAll === 'true', { searchParam: 'maria', pageNumber: String(pageNumber) }));
      for (const t of page.tickets) {
        seen += 1;
        if (t.queueId !== null && !agent.queueIds.includes(t.queueId)) leaks.push(`#${t.id} queue ${t.queueId}`);
        if (t.userId !== null && t.userId !== agent.id) leaks.push(`#${t.id} user ${t.userId}`);
      }
    }
  }
  const [agentVisible] = await query<{ n: number }>(
    `select count(*) as n from tickets where ("queueId" is null or "queueId" in (${agent.queueIds.join(',')})) and ("userId" is null or "userId" = ${agent.id})`,
  );
  const agentAll = await get<TicketPage>('agent', `/api/tickets?showAll=true&pageNumber=1`);
  check(
    "a search keeps the user's queue and assignment rules",
    seen > 0 && leaks.length === 0 && agentAll.count === Number(agentVisible?.n),
    `agent in queues ${JSON.stringify(agent.queueIds)}: ${seen} search results checked, ${leaks.length} outside his queues or assigned to others${leaks.length ? ` (${leaks.slice(0, 5).join(', ')})` : ''}; showAll=true as agent lists ${agentAll.count} of the ${agentVisible?.n} he may see`,
  );

  // Writes: SQLite's data_version moves when another connection commits; PostgreSQL's row
  // counters (flushed by the server's connections within a second or so) and the rows' updatedAt.
  const writeMark = async (ticketId: number): Promise<string> => {
    const [rows] = await query<{ t: string; m: string }>(
      `select (select "updatedAt" from tickets where id = ${ticketId}) as t, (select max("updatedAt") from messages where "ticketId" = ${ticketId}) as m`,
    );
    if (raw) return `data_version ${String(raw.pragma('data_version', { simple: true }))}, ticket ${rows?.t}, messages ${rows?.m}`;
    await new Promise((r) => setTimeout(r, 2500));
    // Only the tables a read could write: startup writes elsewhere (migrations, connection state) flush late.
    const [stat] = await query<{ n: string }>(`select sum(n_tup_ins + n_tup_upd + n_tup_del)::text as n from pg_stat_user_tables where relname in ('tickets', 'messages', 'contacts')`);
    return `row writes to tickets, messages and contacts ${stat?.n}, ticket ${rows?.t}, messages ${rows?.m}`;
  };
  const before = await writeMark(longTicket.id);
  for (let i = 0; i < 5; i += 1) await get('admin', `/api/messages/${longTicket.id}?pageNumber=${1 + (i % 3)}`);
  const after = await writeMark(longTicket.id);
  // The control: a ticket with unread messages is written when read, and the marks see it.
  const controlBefore = await writeMark(unreadTicket.id);
  await get('agent', `/api/messages/${unreadTicket.id}?pageNumber=1`);
  const controlAfter = await writeMark(unreadTicket.id);
  check(
    'reading messages does not write when nothing is unread',
    before === after && controlBefore !== controlAfter,
    `5 reads of ticket #${longTicket.id}: before [${before}] after [${after}]; control, reading unread ticket #${unreadTicket.id}: before [${controlBefore}] after [${controlAfter}]`,
  );
  return checks;
}
