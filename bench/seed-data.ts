/**
 * The seed's data (issue 4): who and what it holds, generated from one deterministic sequence so
 * that every build of a scale holds the same rows (only the timestamps follow the build's clock).
 * `fillSeed` hands the rows to a bulk writer in batches: the messages are never all in memory.
 */
import { foldText } from '@zapdesk/shared/domain';
import { hashPassword } from '@zapdesk/server/core/auth/password';
import { contactSearchText } from '@zapdesk/server/features/contacts/contacts.repository';
import { AGENT_TEXTS, CITIES, CONTACT_TEXTS, FIRST, LAST } from './seed-texts.js';

/** The seed at `scale` (1 = 100,000 tickets): every count of data times the scale; the team (queues, agents) stays. */
export function seedShape(scale = 1) {
  const times = (n: number) => Math.round(n * scale);
  return {
    scale,
    contacts: times(50_000),
    groups: times(500),
    tickets: { closed: times(70_000), open: times(20_000), pending: times(10_000) },
    messages: times(1_000_000),
    longTickets: times(2_000),
    queues: ['Vendas', 'Suporte', 'Financeiro'],
    agents: 20,
    password: 'bench-pass',
    adminEmail: 'admin@bench.local',
  };
}
export type SeedShape = ReturnType<typeof seedShape>;
/** The scales the benchmarks know (`--scale`). */
export const SEED_SCALES = [0.1, 1, 10] as const;
/** The labels the reports filter by (see fillSeed). */
export const SEED_LABELS = ['VIP', 'Reclamação', 'Orçamento', 'Retorno', 'Urgente'];
const LABEL_COLORS = ['#B80000', '#DB3E00', '#FCCB00', '#008B02', '#1273DE'];
export const agentEmail = (n: number) => `agente${n}@bench.local`;

// ---------- deterministic data ----------

/** foldText of the message bodies, which mostly repeat (a template, a name, a city): computed once per distinct body. */
const folded = new Map<string, string>();
function foldBody(body: string): string {
  let text = folded.get(body);
  if (text === undefined) {
    text = foldText(body);
    if (folded.size < 200_000) folded.set(body, text);
  }
  return text;
}

export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

function fill(rand: () => number, template: string, first: string): string {
  return template
    .replace('{first}', first)
    .replace('{city}', pick(rand, CITIES))
    .replace('{n}', String(100000000 + Math.floor(rand() * 899999999)));
}

/** The tables the seed writes (the rest stay as the migrations left them). */
export const LOADED_TABLES = ['queues', 'whatsapps', 'whatsappQueues', 'users', 'userQueues', 'contacts', 'labels', 'tickets', 'messages', 'ticketLabels', 'ticketRatings'];

export type Row = (string | number | null)[];
/** Inserts rows in the order given; a table's rows arrive in id order. */
export type Writer = { insert(table: string, columns: string[], rows: Row[]): Promise<void> };

// ---------- the seed ----------

const MINUTE = 60_000;

export async function fillSeed(w: Writer, log: (s: string) => void, SEED: SeedShape): Promise<void> {
  const rand = prng(4);
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const created = iso(now - 120 * 24 * 60 * MINUTE);

  // Queues, one connection serving them, 20 agents in one or two queues each, an admin.
  const colors = ['#1e88e5', '#43a047', '#fb8c00'];
  await w.insert(
    'queues',
    ['id', 'name', 'color', 'greetingMessage', 'createdAt', 'updatedAt'],
    SEED.queues.map((name, i) => [i + 1, name, colors[i] ?? '#000000', '', created, created]),
  );
  await w.insert(
    'whatsapps',
    ['id', 'name', 'channel', 'status', 'qrcode', 'retries', 'isDefault', 'greetingMessage', 'farewellMessage', 'createdAt', 'updatedAt'],
    [[1, 'Principal', 'simulator', 'DISCONNECTED', '', 0, 1, '', '', created, created]],
  );
  await w.insert(
    'whatsappQueues',
    ['whatsappId', 'queueId'],
    SEED.queues.map((_, i) => [1, i + 1]),
  );
  const passwordHash = await hashPassword(SEED.password);
  const users: Row[] = [[1, 'Administrador', SEED.adminEmail, passwordHash, 'admin', null, foldText(`Administrador ${SEED.adminEmail}`), created, created]];
  const userQueues: Row[] = SEED.queues.map((_, q) => [1, q + 1]);
  const agentsByQueue: number[][] = SEED.queues.map(() => []);
  for (let a = 1; a <= SEED.agents; a += 1) {
    const id = a + 1;
    const name = `${FIRST[(a * 7) % FIRST.length]} ${LAST[(a * 5) % LAST.length]}`;
    users.push([id, name, agentEmail(a), passwordHash, 'user', 1, foldText(`${name} ${agentEmail(a)}`), created, created]);
    // Agent 1 (the benchmark's agent) works Vendas and Suporte; the others one or two queues.
    const queues = a === 1 ? [0, 1] : a % 3 === 0 ? [a % 3, (a + 1) % 3] : [a % 3];
    for (const q of queues) {
      userQueues.push([id, q + 1]);
      agentsByQueue[q]?.push(id);
    }
  }
  await w.insert('users', ['id', 'name', 'email', 'passwordHash', 'profile', 'whatsappId', 'searchText', 'createdAt', 'updatedAt'], users);
  await w.insert('userQueues', ['userId', 'queueId'], userQueues);

  // Contacts: the last SEED.groups are groups.
  const contactNames: string[] = [''];
  const contacts: Row[] = [];
  for (let id = 1; id <= SEED.contacts; id += 1) {
    const isGroup = id > SEED.contacts - SEED.groups;
    const name = isGroup ? `Grupo ${pick(rand, CITIES)} ${id}` : `${pick(rand, FIRST)} ${pick(rand, LAST)}${rand() < 0.4 ? ` ${pick(rand, LAST)}` : ''}`;
    const number = isGroup ? `120363${String(100000000000 + id)}` : `55${11 + Math.floor(rand() * 88)}9${String(10000000 + id * 17).slice(-8)}`;
    const email = rand() < 0.2 ? `${foldText(name).replace(/[^a-z]+/g, '.')}${id}@email.com.br` : '';
    contactNames.push(name);
    contacts.push([id, name, number, email, '', isGroup ? 1 : 0, contactSearchText({ name, number, email }), created, created]);
  }
  await w.insert('contacts', ['id', 'name', 'number', 'email', 'profilePicUrl', 'isGroup', 'searchText', 'createdAt', 'updatedAt'], contacts);
  log(`contacts: ${contacts.length}`);

  // Tickets: shuffled statuses; open and pending ones on distinct contacts (one active ticket
  // per contact and connection); group contacts' tickets are group tickets.
  const { closed, open, pending } = SEED.tickets;
  const total = closed + open + pending;
  const statuses: string[] = [...Array<string>(closed).fill('closed'), ...Array<string>(open).fill('open'), ...Array<string>(pending).fill('pending')];
  for (let i = statuses.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rand() * (i + 1));
    [statuses[i], statuses[j]] = [statuses[j] as string, statuses[i] as string];
  }
  const activeContacts = Array.from({ length: SEED.contacts }, (_, i) => i + 1);
  for (let i = activeContacts.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rand() * (i + 1));
    [activeContacts[i], activeContacts[j]] = [activeContacts[j] as number, activeContacts[i] as number];
  }
  // Long tickets (over 100 messages): every 50th ticket.
  const longEvery = Math.floor(total / SEED.longTickets);
  const longCounts = new Map<number, number>();
  let longSum = 0;
  for (let id = longEvery; id <= total && longCounts.size < SEED.longTickets; id += longEvery) {
    const n = 101 + Math.floor(rand() * 100);
    longCounts.set(id, n);
    longSum += n;
  }
  const shortTickets = total - longCounts.size;
  let remaining = SEED.messages - longSum;

  const messageColumns = [
    'id',
    'ticketId',
    'whatsappId',
    'providerId',
    'contactId',
    'body',
    'fromMe',
    'read',
    'ack',
    'mediaType',
    'mediaPath',
    'quotedMsgId',
    'isDeleted',
    'searchText',
    'createdAt',
    'updatedAt',
  ];
  const ticketColumns = [
    'id',
    'status',
    'contactId',
    'whatsappId',
    'userId',
    'queueId',
    'lastMessage',
    'unreadMessages',
    'isGroup',
    'createdAt',
    'updatedAt',
    'firstResponseAt',
    'closedAt',
    'askedAt',
    'answeredAt',
    'answeredBy',
  ];
  // The reports' facts: labels on 30% of the tickets, a satisfaction answer on a third of the closed ones.
  await w.insert(
    'labels',
    ['id', 'name', 'color', 'createdAt', 'updatedAt'],
    SEED_LABELS.map((name, i) => [i + 1, name, LABEL_COLORS[i] ?? '#607D8B', iso(now), iso(now)]),
  );
  const ratingColumns = ['ticketId', 'whatsappId', 'contactId', 'userId', 'queueId', 'askedAt', 'score', 'answeredAt'];
  let ticketLabels: Row[] = [];
  let ratings: Row[] = [];
  let tickets: Row[] = [];
  let messages: Row[] = [];
  let messageId = 0;
  let activeIndex = 0;
  let shortLeft = shortTickets;
  let unreadTickets = 0;
  for (let id = 1; id <= total; id += 1) {
    const status = statuses[id - 1] as string;
    const contactId = status === 'closed' ? 1 + Math.floor(rand() * SEED.contacts) : (activeContacts[activeIndex++] as number);
    const isGroup = contactId > SEED.contacts - SEED.groups;
    const queueIndex = rand() < 0.1 ? null : Math.floor(rand() * SEED.queues.length);
    const queueAgents = queueIndex === null ? [] : (agentsByQueue[queueIndex] ?? []);
    const anyAgent = 2 + Math.floor(rand() * SEED.agents);
    const userId = status === 'pending' ? null : queueAgents.length ? pick(rand, queueAgents) : anyAgent;
    // Closed tickets over the last 90 days; open and pending ones within the last 12 hours (the
    // server closes open tickets idle for 24 hours, at start too).
    const span = status === 'closed' ? 90 * 24 * 60 : 12 * 60;
    let count = longCounts.get(id);
    if (count === undefined) {
      count = shortLeft === 1 ? remaining : Math.max(1, Math.min(remaining - (shortLeft - 1), Math.round(remaining / shortLeft + (rand() - 0.5) * 8)));
      shortLeft -= 1;
    }
    remaining -= longCounts.has(id) ? 0 : count;
    const unread = rand() < 0.3 ? 1 + Math.floor(rand() * Math.min(5, count)) : 0;
    if (unread) unreadTickets += 1;
    const first = (contactNames[contactId] ?? 'Cliente').split(' ')[0] ?? 'Cliente';
    // Messages 1 to 5 minutes apart (active tickets: 30 to 60 seconds), the last one within the span.
    const step = status === 'closed' ? [MINUTE, 4 * MINUTE] : [MINUTE / 2, MINUTE / 2];
    let at = now - Math.floor(rand() * span) * MINUTE - count * ((step[0] ?? 0) + (step[1] ?? 0));
    const ticketCreated = at;
    let lastBody = '';
    let firstReply: number | null = null;
    // The dashboard's moments (migration 047): the contact's first message, the first answer after it.
    let askedAt: number | null = null;
    let answeredAt: number | null = null;
    for (let m = 0; m < count; m += 1) {
      messageId += 1;
      at += (step[0] ?? 0) + Math.floor(rand() * (step[1] ?? 0));
      // The trailing `unread` messages came in and are unread; before them, 45% from agents.
      const trailing = m >= count - unread;
      const fromMe = !trailing && rand() < 0.45 / (1 - unread / count || 1);
      const image = rand() < 0.05;
      const text = fill(rand, pick(rand, fromMe ? AGENT_TEXTS : CONTACT_TEXTS), first);
      const body = image ? (rand() < 0.5 ? text : '') : text;
      lastBody = image && !body ? '📷 Foto' : body;
      if (fromMe && firstReply === null) firstReply = at;
      if (!fromMe && askedAt === null) askedAt = at;
      if (fromMe && askedAt !== null && answeredAt === null) answeredAt = at;
      const stamp = iso(at);
      messages.push([
        messageId,
        id,
        1,
        `bench-${messageId}`,
        fromMe ? null : contactId,
        body,
        fromMe ? 1 : 0,
        trailing ? 0 : 1,
        fromMe ? 3 : 0,
        image ? 'image' : null,
        image ? `bench/${messageId}.jpg` : null,
        null,
        0,
        foldBody(body),
        stamp,
        stamp,
      ]);
    }
    const updated = status === 'closed' ? at + MINUTE : at;
    const queueId = queueIndex === null ? null : queueIndex + 1;
    // An agent's reply is the first response of a ticket that has an agent (no rand(): the 1× seed's data stays as it was).
    const firstResponse = userId !== null && firstReply !== null ? iso(firstReply) : null;
    tickets.push([
      id,
      status,
      contactId,
      1,
      userId,
      queueId,
      lastBody,
      unread,
      isGroup ? 1 : 0,
      iso(ticketCreated),
      iso(updated),
      firstResponse,
      status === 'closed' ? iso(updated) : null,
      askedAt === null ? null : iso(askedAt),
      answeredAt === null ? null : iso(answeredAt),
      null,
    ]);
    if (id % 10 < 3) ticketLabels.push([id, 1 + (id % SEED_LABELS.length)]);
    if (status === 'closed' && id % 3 === 0) ratings.push([id, 1, contactId, userId, queueId, iso(updated), 1 + ((id * 7) % 5), iso(updated + 2 * MINUTE)]);
    if (messages.length >= 20_000) {
      await w.insert('tickets', ticketColumns, tickets);
      await w.insert('messages', messageColumns, messages);
      await w.insert('ticketLabels', ['ticketId', 'labelId'], ticketLabels);
      await w.insert('ticketRatings', ratingColumns, ratings);
      tickets = [];
      messages = [];
      ticketLabels = [];
      ratings = [];
    }
    if (id % 10_000 === 0) log(`tickets: ${id}, messages: ${messageId}`);
  }
  await w.insert('tickets', ticketColumns, tickets);
  await w.insert('messages', messageColumns, messages);
  await w.insert('ticketLabels', ['ticketId', 'labelId'], ticketLabels);
  await w.insert('ticketRatings', ratingColumns, ratings);
  log(`tickets: ${total} (${unreadTickets} with unread), messages: ${messageId}`);
}
