/**
 * The inbox benchmark's seed (issue 4): 50,000 contacts, 100,000 tickets and 1,000,000 messages,
 * in Portuguese with accents, built on the product's own schema (its migrations) with bulk
 * inserts. Every column the product reads is filled as the product fills it: the folded
 * `searchText` of contacts, users and messages (and through it the full-text index of
 * migration 003: SQLite FTS5 kept by its triggers, PostgreSQL's GIN tsvector index), the ticket's
 * lastMessage, updatedAt and unreadMessages matching its messages.
 *
 *   npx tsx --conditions=source bench/seed.ts --db sqlite [--scale 0.1|1|10] [--out bench/.data/sqlite/zapdesk.sqlite]
 *   npx tsx --conditions=source bench/seed.ts --db postgres [--scale 0.1|1|10] [--out postgres://postgres@127.0.0.1:5432/zapdesk_bench_seed]
 *
 * `--scale 10`: 500,000 contacts, 1,000,000 tickets, 10,000,000 messages (zapdesk-10x.sqlite,
 * zapdesk_bench_seed_10x); `--scale 0.1` a tenth. Every count of data scales; queues and agents stay.
 *
 * Logins: admin@bench.local and agente1..agente20@bench.local, password 'bench-pass'.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { foldText } from '@zapdesk/shared/domain';
import { openDatabase } from '@zapdesk/server/core/db/database';
import { migrateToLatest } from '@zapdesk/server/core/db/migrate';
import { hashPassword } from '@zapdesk/server/core/auth/password';
import { contactSearchText } from '@zapdesk/server/features/contacts/contacts.repository';

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
export const SEED = seedShape(1);
/** The scales the benchmarks know (`--scale`). */
export const SEED_SCALES = [0.1, 1, 10] as const;
export function parseScale(value: string | undefined): number {
  const scale = Number(value ?? '1');
  if (!SEED_SCALES.includes(scale as (typeof SEED_SCALES)[number])) throw new Error(`--scale ${value}: one of ${SEED_SCALES.join(', ')}`);
  return scale;
}
/** '10x', '1x', '0_1x': the scale in file and database names. */
export const scaleTag = (scale: number) => `${String(scale).replace('.', '_')}x`;
/** The labels the reports filter by (see fillSeed). */
export const SEED_LABELS = ['VIP', 'Reclamação', 'Orçamento', 'Retorno', 'Urgente'];
const LABEL_COLORS = ['#B80000', '#DB3E00', '#FCCB00', '#008B02', '#1273DE'];
export const agentEmail = (n: number) => `agente${n}@bench.local`;
/** Where the cached seeds live: BENCH_SEED_DIR (SQLite files) and BENCH_SEED_URL's server (PostgreSQL); the 1× names are the historical ones. */
const SEED_DIR = process.env.BENCH_SEED_DIR ?? path.join(import.meta.dirname, '.data', 'sqlite');
export const DEFAULT_SQLITE_SEED = path.join(SEED_DIR, 'zapdesk.sqlite');
export const DEFAULT_PG_SEED = 'postgres://postgres@127.0.0.1:5432/zapdesk_bench_seed';
/** The default cached seed for a database kind and scale (env BENCH_SEED_FILE / BENCH_SEED_URL override the 1× one). */
export function seedTarget(kind: 'sqlite' | 'postgres', scale = 1): string {
  if (kind === 'sqlite') return scale === 1 ? (process.env.BENCH_SEED_FILE ?? DEFAULT_SQLITE_SEED) : path.join(SEED_DIR, `zapdesk-${scaleTag(scale)}.sqlite`);
  if (scale === 1) return process.env.BENCH_SEED_URL ?? DEFAULT_PG_SEED;
  const url = new URL(process.env.BENCH_SEED_URL ?? DEFAULT_PG_SEED);
  url.pathname = `${url.pathname}_${scaleTag(scale)}`;
  return url.toString();
}

// ---------- deterministic data ----------

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'João',
  'Maria',
  'José',
  'Ana',
  'Antônio',
  'Francisco',
  'Conceição',
  'Luís',
  'Paulo',
  'Carlos',
  'Márcia',
  'Fátima',
  'Sebastião',
  'Júlia',
  'Lúcia',
  'Raimundo',
  'Tânia',
  'Mônica',
  'Cláudia',
  'Sérgio',
  'Estêvão',
  'Inês',
  'Gonçalo',
  'Vitória',
  'Patrícia',
  'Rafael',
  'Letícia',
  'Caio',
  'Bárbara',
  'Célia',
  'Marcelo',
  'Mariana',
  'Thiago',
  'Beatriz',
  'André',
  'Luíza',
];
const LAST = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Lima',
  'Pereira',
  'Ferreira',
  'Gonçalves',
  'Araújo',
  'da Conceição',
  'Magalhães',
  'Simões',
  'Ribeiro',
  'Assunção',
  'Brandão',
  'Falcão',
  'Fontes',
  'Guimarães',
  'Leão',
  'Nóbrega',
  'Gomes',
  'Carvalho',
  'Rocha',
  'Almeida',
];
const CITIES = ['São Paulo', 'Belém', 'Goiânia', 'Florianópolis', 'Maceió', 'João Pessoa', 'Ribeirão Preto', 'Vitória', 'Cuiabá', 'Niterói'];
const CONTACT_TEXTS = [
  'Olá, bom dia! Gostaria de saber o horário de atendimento.',
  'Meu pedido ainda não chegou, poderiam verificar por favor?',
  'A fatura deste mês veio com valor errado, você pode me ajudar?',
  'Obrigado pela atenção, até mais!',
  'Qual é o prazo de entrega para {city}?',
  'Preciso trocar o endereço de cobrança, mudei para {city}.',
  'Não consigo acessar minha conta desde ontem.',
  'Vocês aceitam cartão de crédito ou só boleto?',
  'Já fiz o pagamento via Pix, segue o comprovante.',
  'Quando vão resolver o problema da conexão? Está lenta demais.',
  'Falei com a {first} ontem e ela disse que iria retornar.',
  'Boa tarde! Vi a promoção no Instagram, ainda está válida?',
  'Quero cancelar a assinatura, como faço?',
  'O técnico não apareceu no horário combinado.',
  'Vocês têm loja física em {city}?',
  'Pode me mandar a segunda via do boleto?',
  'Sim, é isso mesmo. Muito obrigado!',
  'Ok 👍',
];
const AGENT_TEXTS = [
  'Olá {first}, tudo bem? Vou verificar para você.',
  'Seu pedido foi enviado, o código de rastreio é BR{n}.',
  'Por favor, confirme o CPF do titular da conta.',
  'Pronto, a solicitação foi concluída. Posso ajudar em algo mais?',
  'Peço desculpas pela demora, estamos com alto volume de atendimentos.',
  'A segunda via já está disponível no seu e-mail.',
  'Entendo, {first}. Já encaminhei para o setor técnico.',
  'O prazo de entrega para {city} é de 3 a 5 dias úteis.',
  'Aceitamos cartão de crédito, débito, boleto e Pix.',
  'Obrigado pelo contato! Tenha um ótimo dia.',
];

/**
 * The seed's vocabulary: every distinct word (3 letters or more, folded as the search folds it)
 * of its names, cities and message texts. Common words ('obrigado', 'pedido') are in tens of
 * thousands of messages, first names in a few thousand tickets, last names only in contacts.
 */
export function seedVocabulary(): string[] {
  const words = new Set<string>();
  for (const text of [...FIRST, ...LAST, ...CITIES, ...CONTACT_TEXTS, ...AGENT_TEXTS]) {
    for (const word of foldText(text.replace(/\{\w+\}/g, ' ')).match(/[\p{L}]+/gu) ?? []) if (word.length >= 3) words.add(word);
  }
  return [...words].sort();
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

// ---------- bulk writers ----------

type Row = (string | number | null)[];
type Writer = { insert(table: string, columns: string[], rows: Row[]): Promise<void>; close(): Promise<void> };

function sqliteWriter(file: string): Writer & { begin(): void; commit(): void } {
  const db = new SQLite(file);
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const statements = new Map<string, SQLite.Statement>();
  return {
    begin: () => db.exec('begin'),
    commit: () => db.exec('commit'),
    async insert(table, columns, rows) {
      const perChunk = Math.max(1, Math.min(500, Math.floor(30000 / columns.length)));
      for (let i = 0; i < rows.length; i += perChunk) {
        const chunk = rows.slice(i, i + perChunk);
        const key = `${table}:${chunk.length}`;
        let statement = statements.get(key);
        if (!statement) {
          const tuple = `(${columns.map(() => '?').join(',')})`;
          statement = db.prepare(`insert into "${table}" (${columns.map((c) => `"${c}"`).join(',')}) values ${Array.from({ length: chunk.length }, () => tuple).join(',')}`);
          statements.set(key, statement);
        }
        statement.run(chunk.flat());
      }
    },
    async close() {
      db.close();
    },
  };
}

function pgWriter(client: pg.Client): Writer {
  return {
    async insert(table, columns, rows) {
      const perChunk = Math.max(1, Math.floor(60000 / columns.length));
      for (let i = 0; i < rows.length; i += perChunk) {
        const chunk = rows.slice(i, i + perChunk);
        let n = 0;
        const tuples = chunk.map(() => `(${columns.map(() => `$${++n}`).join(',')})`).join(',');
        await client.query(`insert into "${table}" (${columns.map((c) => `"${c}"`).join(',')}) values ${tuples}`, chunk.flat());
      }
    },
    async close() {
      await client.end();
    },
  };
}

// ---------- the seed ----------

const MINUTE = 60_000;

async function fillSeed(w: Writer, log: (s: string) => void, SEED: SeedShape): Promise<void> {
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
  const ticketColumns = ['id', 'status', 'contactId', 'whatsappId', 'userId', 'queueId', 'lastMessage', 'unreadMessages', 'isGroup', 'createdAt', 'updatedAt', 'firstResponseAt', 'closedAt'];
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
        foldText(body),
        iso(at),
        iso(at),
      ]);
    }
    const updated = status === 'closed' ? at + MINUTE : at;
    const queueId = queueIndex === null ? null : queueIndex + 1;
    // An agent's reply is the first response of a ticket that has an agent (no rand(): the 1× seed's data stays as it was).
    const firstResponse = userId !== null && firstReply !== null ? iso(firstReply) : null;
    tickets.push([id, status, contactId, 1, userId, queueId, lastBody, unread, isGroup ? 1 : 0, iso(ticketCreated), iso(updated), firstResponse, status === 'closed' ? iso(updated) : null]);
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

/** Builds the SQLite seed file at `file` (replacing it). */
export async function seedSqlite(file: string, log: (s: string) => void = console.log, scale = 1): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
  // The schema is the product's: its own migrations on a database named as the server names it.
  const tmpDir = fs.mkdtempSync(path.join(path.dirname(file), 'build-'));
  const handle = openDatabase({ databaseUrl: undefined, dataDir: tmpDir });
  await migrateToLatest(handle);
  await handle.close();
  const w = sqliteWriter(path.join(tmpDir, 'zapdesk.sqlite'));
  w.begin();
  await fillSeed(w, log, seedShape(scale));
  w.commit();
  await w.close();
  // A clean single file (WAL folded in) for the benchmark to copy.
  const db = new SQLite(path.join(tmpDir, 'zapdesk.sqlite'));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.pragma('journal_mode = DELETE');
  db.close();
  fs.renameSync(path.join(tmpDir, 'zapdesk.sqlite'), file);
  fs.rmSync(tmpDir, { recursive: true, force: true });
}

/** Builds the PostgreSQL seed in the database of `url` (dropped and created anew). */
export async function seedPostgres(url: string, log: (s: string) => void = console.log, scale = 1): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsupported database name ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`drop database if exists ${name} with (force)`);
  await c.query(`create database ${name}`);
  await c.end();
  const handle = openDatabase({ databaseUrl: url, dataDir: '' });
  await migrateToLatest(handle);
  await handle.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`set maintenance_work_mem = '512MB'`);
  await client.query('set synchronous_commit = off');
  // The full-text index is built once after the bulk load: the same definition as migration 003.
  await client.query('drop index messages_search_fts');
  await client.query('begin');
  await fillSeed(pgWriter(client), log, seedShape(scale));
  await client.query('commit');
  log('building the full-text index');
  await client.query(`create index messages_search_fts on messages using gin (to_tsvector('simple', "searchText"))`);
  for (const table of ['queues', 'whatsapps', 'users', 'contacts', 'tickets', 'messages', 'labels']) {
    await client.query(`select setval(pg_get_serial_sequence('"${table}"', 'id'), (select max(id) from "${table}"))`);
  }
  await client.query('vacuum analyze');
  await client.end();
}

/** Open tickets idle for a day are closed when the server starts: a seed older than that is stale. */
const FRESH_FOR_MS = 20 * 3600 * 1000;

/** True when the seed at `target` is complete and fresh (a rerun reuses it). */
export async function seedExists(kind: 'sqlite' | 'postgres', target: string, scale = 1): Promise<boolean> {
  const SEED = seedShape(scale);
  try {
    if (kind === 'sqlite') {
      if (!fs.existsSync(target)) return false;
      const db = new SQLite(target, { readonly: true });
      const row = db.prepare(`select count(*) as n, (select min("updatedAt") from tickets where status = 'open') as oldest from messages`).get() as { n: number; oldest: string };
      db.close();
      return row.n === SEED.messages && Date.now() - Date.parse(row.oldest) < FRESH_FOR_MS;
    }
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number; oldest: string }>(`select count(*)::int as n, (select min("updatedAt") from tickets where status = 'open')::text as oldest from messages`);
      return rows[0]?.n === SEED.messages && Date.now() - Date.parse(rows[0].oldest) < FRESH_FOR_MS;
    } finally {
      await client.end();
    }
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { db: { type: 'string', default: 'sqlite' }, out: { type: 'string' }, scale: { type: 'string', default: '1' } } });
  const scale = parseScale(values.scale);
  const started = performance.now();
  if (values.db === 'postgres') await seedPostgres(values.out ?? seedTarget('postgres', scale), console.log, scale);
  else if (values.db === 'sqlite') await seedSqlite(path.resolve(values.out ?? seedTarget('sqlite', scale)), console.log, scale);
  else throw new Error('--db sqlite|postgres');
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
