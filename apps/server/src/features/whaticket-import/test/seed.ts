/**
 * Seeds a migrated whaticket database (see whaticket-source.ts) the way years of whaticket use leave
 * one: users with bcrypt hashes (bcryptjs, cost 8, as whaticket hashes), queues, links (some pointing
 * to rows deleted since: the join tables have no foreign keys), connections, contacts in odd number
 * forms, group contacts, custom fields, tickets in every status (two open ones for one contact),
 * messages with quotes, deletions, acks and media files in `publicDir`, quick answers and settings.
 * Deterministic for a given seed and `now` (active tickets are dated in the day before it); multi-row INSERTs, streamed by ticket chunks, so it scales to 1M
 * messages with flat memory.
 */
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { mediaFile, prng, writeMedia, type MediaKind } from './seed-media.js';
import type { SourceDb } from './whaticket-source.js';

export type SeedOptions = {
  contacts?: number;
  tickets?: number;
  messages?: number;
  seed?: number;
  publicDir: string;
  batchSize?: number;
  now?: Date;
  mediaEvery?: number;
  distinctMediaFiles?: number;
};

export type SeedUser = { id: number; name: string; email: string; password: string; profile: string; queueIds: number[]; verifiable: boolean };
export type SeedFacts = {
  counts: Record<string, number>;
  users: SeedUser[];
  queues: { id: number; name: string; color: string; greetingMessage: string | null }[];
  whatsapps: { id: number; name: string; status: string }[];
  /** The contact with two open tickets, and those tickets' ids (older first). */
  conflict: { contactId: number; number: string; ticketIds: [number, number] };
  /** Contacts whose numbers were written in odd forms: id → number as stored. */
  oddNumbers: Record<number, string>;
  /** Orphan links: rows pointing to rows deleted since. */
  orphans: { userQueues: string[]; whatsappQueues: string[] };
  media: { messageId: string; name: string; path: string; mediaType: string; exists: boolean }[];
  missingMediaMessageId: string;
  quotedMessageIds: string[];
  deletedMessageIds: string[];
  /** Tickets worth reading in full: with media, a quote, a deletion, the conflict, a group. */
  sampleTicketIds: number[];
};

const BASE = Date.UTC(2022, 0, 3, 12, 0, 0);
const PHRASES = [
  'Oi, tudo bem?',
  'Bom dia! Gostaria de saber o preço.',
  'Qual o prazo de entrega para Campinas?',
  'Obrigado 🙏',
  'Segue o comprovante',
  'Pode me mandar o boleto?',
  'Ainda não chegou 😕',
  'Perfeito, fechado então!',
  'Vocês abrem no sábado?',
  'Linha 1\nLinha 2 com acentuação: ção, é, ü',
  'Já resolvi, obrigado.',
  'Preciso falar com o financeiro',
];
const REPLIES = [
  'Olá! Em que posso ajudar?',
  'O prazo é de 3 dias úteis.',
  'Enviamos o boleto por e-mail.',
  'Claro, um momento por favor.',
  'Abrimos sim, das 9h às 13h.',
  'Encaminhei para o setor responsável.',
];
const SALT = (cost: string, chars: string) => `$2a$${cost}$${chars.padEnd(22, 'e').slice(0, 22)}`;

export async function seedWhaticket(db: SourceDb, options: SeedOptions): Promise<SeedFacts> {
  const nContacts = Math.max(options.contacts ?? 320, 40);
  const nTickets = Math.max(options.tickets ?? 600, 20);
  const nMessages = Math.max(options.messages ?? 6000, nTickets);
  const batch = options.batchSize ?? 2000;
  const mediaEvery = options.mediaEvery ?? 37;
  const random = prng(options.seed ?? 26);
  const at = (ms: number) => new Date(BASE + ms);
  const nowMs = (options.now?.getTime() ?? BASE + 40 * 86_400_000) - BASE;
  const counts: Record<string, number> = {};
  const insert = async (table: string, columns: string[], rows: unknown[][]) => {
    for (let i = 0; i < rows.length; i += batch) await db.insertRows(table, columns, rows.slice(i, i + batch));
    counts[table] = (counts[table] ?? 0) + rows.length;
  };

  // Connections: one default, one disconnected, one waiting for a QR.
  const whatsapps = [
    {
      id: 1,
      name: 'Comercial',
      status: 'CONNECTED',
      isDefault: true,
      session: JSON.stringify({ WABrowserId: '"x"', WASecretBundle: '"y"' }),
      greeting: 'Olá! Bem-vindo à Loja Exemplo.',
      farewell: 'Obrigado pelo contato!',
    },
    { id: 2, name: 'Suporte', status: 'DISCONNECTED', isDefault: false, session: null, greeting: null, farewell: 'Até logo.' },
    { id: 3, name: 'Celular antigo', status: 'qrcode', isDefault: false, session: null, greeting: 'Oi!', farewell: null },
  ];
  await insert(
    'Whatsapps',
    ['id', 'session', 'qrcode', 'status', 'battery', 'plugged', 'name', 'isDefault', 'retries', 'greetingMessage', 'farewellMessage', 'createdAt', 'updatedAt'],
    whatsapps.map((w) => [
      w.id,
      w.session,
      w.status === 'qrcode' ? '2@abc,def,ghi==' : '',
      w.status,
      w.id === 1 ? '87' : null,
      w.id === 1 ? true : null,
      w.name,
      w.isDefault,
      w.id - 1,
      w.greeting,
      w.farewell,
      at(0),
      at(1000),
    ]),
  );

  const queues = [
    { id: 1, name: 'Vendas', color: '#7c4dff', greetingMessage: 'Você está na fila de Vendas. Já vamos te atender!' },
    { id: 2, name: 'Suporte', color: '#00bcd4', greetingMessage: 'Suporte técnico: descreva o problema, por favor.' },
    { id: 3, name: 'Financeiro', color: '#FF9800', greetingMessage: null },
  ];
  await insert(
    'Queues',
    ['id', 'name', 'color', 'greetingMessage', 'createdAt', 'updatedAt'],
    queues.map((q) => [q.id, q.name, q.color, q.greetingMessage, at(0), at(0)]),
  );
  await insert(
    'WhatsappQueues',
    ['whatsappId', 'queueId', 'createdAt', 'updatedAt'],
    [
      [1, 1, at(0), at(0)],
      [1, 2, at(0), at(0)],
      [2, 3, at(0), at(0)],
      [1, 99, at(0), at(0)],
      [99, 2, at(0), at(0)],
    ],
  );

  const users: SeedUser[] = [
    { id: 1, name: 'Administrador', email: 'admin@whaticket.com', password: 'admin', profile: 'admin', queueIds: [1, 2, 3], verifiable: true },
    { id: 2, name: 'Ana Souza', email: 'ana@lojaexemplo.com.br', password: 'ana-senha-2021', profile: 'user', queueIds: [1], verifiable: true },
    { id: 3, name: 'Bruno Lima', email: 'bruno@lojaexemplo.com.br', password: 'Bruno#Suporte9', profile: 'user', queueIds: [2, 3], verifiable: true },
    { id: 4, name: 'Carla Dias', email: 'carla@lojaexemplo.com.br', password: 'carla 123 çã', profile: 'user', queueIds: [], verifiable: true },
    { id: 5, name: 'Diego Reis', email: 'diego@lojaexemplo.com.br', password: 'diego-supervisor', profile: 'supervisor', queueIds: [2], verifiable: true },
    { id: 6, name: 'Eva Migrada', email: 'eva@lojaexemplo.com.br', password: '', profile: 'user', queueIds: [1], verifiable: false },
  ];
  const hash = (u: SeedUser) => (u.verifiable ? bcrypt.hashSync(u.password, SALT(u.id === 3 ? '10' : '08', `zapdeskfixture${u.id}`)) : 'sha1$5f4dcc3b5aa765d61d8327deb882cf99');
  await insert(
    'Users',
    ['id', 'name', 'email', 'passwordHash', 'profile', 'tokenVersion', 'whatsappId', 'createdAt', 'updatedAt'],
    users.map((u) => [u.id, u.name, u.email, hash(u), u.profile, u.id % 3, u.id === 3 ? 2 : null, at(u.id * 60000), at(u.id * 60000)]),
  );
  const userQueues = users.flatMap((u) => u.queueIds.map((q) => [u.id, q, at(0), at(0)]));
  await insert('UserQueues', ['userId', 'queueId', 'createdAt', 'updatedAt'], [...userQueues, [42, 1, at(0), at(0)], [2, 99, at(0), at(0)]]);

  // Contacts: Brazilian mobiles, some written by hand in odd forms, some groups, one without a number,
  // and one whose digits equal another contact's.
  const oddNumbers: Record<number, string> = {};
  const contactRows: unknown[][] = [];
  const fieldRows: unknown[][] = [];
  const isGroup: boolean[] = [false];
  for (let id = 1; id <= nContacts; id += 1) {
    const digits = `55${11 + (id % 80)}9${String(10000000 + id * 7919).slice(-8)}`;
    let number = digits;
    let group = false;
    if (id % 25 === 5) {
      group = true;
      number = id % 2 ? `${digits}-${1600000000 + id}` : `1203630${String(id).padStart(11, '0')}`;
    } else if (id % 10 === 3) number = `+${digits.slice(0, 2)} (${digits.slice(2, 4)}) ${digits.slice(4, 9)}-${digits.slice(9)}`;
    else if (id % 10 === 7) number = `${digits.slice(0, 4)} ${digits.slice(4, 9)} ${digits.slice(9)}`;
    if (id === nContacts - 1) number = `+${contactRows[1]?.[2] as string}`; // the same digits as contact 2
    if (id === nContacts) number = '';
    if (number !== digits && !group) oddNumbers[id] = number;
    isGroup.push(group);
    const name = group ? `Grupo Clientes ${id}` : id % 13 === 0 ? number || 'Sem número' : `Cliente ${id} ${random.pick(['Silva', 'Santos', 'Oliveira', 'Souza', 'Pereira', 'Ávila'])}`;
    const email = id % 4 === 0 && !group ? `cliente${id}@exemplo.com.br` : '';
    const pic = id % 3 === 0 ? `https://pps.whatsapp.net/v/t61.24694-24/${random.hex(12)}_n.jpg` : null;
    contactRows.push([id, name, number, pic, email, group, at(id * 1000), at(id * 1000)]);
    if (id % 6 === 0 && !group) {
      fieldRows.push([fieldRows.length + 1, 'CPF', `${random.int(999)}.${random.int(999)}.${random.int(999)}-${random.int(99)}`, id, at(id * 1000), at(id * 1000)]);
      if (id % 12 === 0) fieldRows.push([fieldRows.length + 1, 'Empresa', `Empresa ${id} Ltda.`, id, at(id * 1000), at(id * 1000)]);
    }
  }
  await insert('Contacts', ['id', 'name', 'number', 'profilePicUrl', 'email', 'isGroup', 'createdAt', 'updatedAt'], contactRows);
  await insert('ContactCustomFields', ['id', 'name', 'value', 'contactId', 'createdAt', 'updatedAt'], fieldRows);
  const plainContacts = contactRows.filter((r) => !isGroup[r[0] as number] && r[2] !== '').map((r) => r[0] as number);

  // Tickets: 20 % open, 13 % pending, the rest closed; open and pending ones on distinct contacts, plus a
  // second open ticket for contact 1 (the conflict) and a ticket whose contact is gone (contactId NULL).
  type TicketPlan = { id: number; status: string; contactId: number | null; userId: number | null; queueId: number | null; whatsappId: number | null; messages: number; createdAt: number };
  const plans: TicketPlan[] = [];
  let activeContact = 1;
  const perTicket = Math.floor(nMessages / nTickets);
  let remaining = nMessages;
  for (let id = 1; id <= nTickets; id += 1) {
    const status = id === 2 ? 'open' : id === nTickets ? 'closed' : id % 15 < 3 ? 'open' : id % 15 < 5 ? 'pending' : 'closed';
    let contactId: number | null = status === 'closed' ? (random.pick(plainContacts) ?? 1) : activeContact;
    if (status !== 'closed' && id !== 1) activeContact = (activeContact % (nContacts - 2)) + 1;
    if (id === 1 || id === 2) contactId = 1;
    if (id === nTickets) contactId = null;
    if (contactId !== null && status !== 'closed' && id > 2 && contactId === 1) contactId = 2;
    const count = id === nTickets ? remaining : Math.max(1, Math.min(remaining - (nTickets - id), perTicket - 4 + random.int(9)));
    remaining -= count;
    plans.push({
      id,
      status,
      contactId,
      userId: status === 'pending' ? null : random.int(8) === 0 ? null : 1 + random.int(users.length),
      queueId: random.int(6) === 0 ? null : 1 + random.int(queues.length),
      whatsappId: random.int(20) === 0 ? null : random.int(5) === 0 ? 2 : 1,
      messages: count,
      // Active tickets live in the last day (the product closes open tickets idle for 24 h); history before.
      createdAt: status === 'closed' ? id * 3_600_000 + random.int(3_000_000) : nowMs - 23 * 3_600_000 + random.int(12 * 3_600_000),
    });
  }

  const media: SeedFacts['media'] = [];
  const quotedMessageIds: string[] = [];
  const deletedMessageIds: string[] = [];
  let missingMediaMessageId = '';
  let seq = 0;
  const kinds: MediaKind[] = ['image', 'audio', 'application', 'video'];
  const ticketColumns = ['id', 'status', 'lastMessage', 'contactId', 'userId', 'createdAt', 'updatedAt', 'whatsappId', 'isGroup', 'unreadMessages', 'queueId'];
  const messageColumns = ['id', 'body', 'ack', 'read', 'mediaType', 'mediaUrl', 'ticketId', 'createdAt', 'updatedAt', 'fromMe', 'isDeleted', 'contactId', 'quotedMsgId'];
  const chunk = Math.max(1, Math.floor(batch / Math.max(1, perTicket)));
  for (let start = 0; start < plans.length; start += chunk) {
    const ticketRows: unknown[][] = [];
    const messageRows: unknown[][] = [];
    for (const t of plans.slice(start, start + chunk)) {
      const group = t.contactId !== null && isGroup[t.contactId] === true;
      const unread = t.status === 'closed' ? 0 : random.int(4);
      const ids: string[] = [];
      let ms = t.createdAt;
      let last = '';
      for (let k = 0; k < t.messages; k += 1) {
        seq += 1;
        ms += 1000 + random.int(600_000);
        const id = `3EB0${seq.toString(16).toUpperCase().padStart(8, '0')}${random.hex(8)}`;
        const fromMe = k > 0 && k >= t.messages - unread ? false : k % 2 === 1 ? random.int(5) > 0 : random.int(5) === 0;
        let body = fromMe ? random.pick(REPLIES) : random.pick(PHRASES);
        let mediaType: string | null = 'chat';
        let mediaUrl: string | null = null;
        if (seq % mediaEvery === 0) {
          const file = mediaFile(random, kinds[(seq / mediaEvery) % kinds.length] ?? 'image', BASE + ms);
          const reuse = options.distinctMediaFiles !== undefined && media.length >= options.distinctMediaFiles;
          const present = media.filter((m) => m.exists);
          const name = reuse ? (present[seq % present.length]?.name ?? file.name) : file.name;
          const exists = reuse || missingMediaMessageId !== '' || media.length < 3;
          if (!reuse) {
            if (exists) writeMedia(options.publicDir, file.name, file.bytes);
            else missingMediaMessageId = id;
            media.push({ messageId: id, name, path: path.join(options.publicDir, name), mediaType: file.mediaType, exists });
          }
          mediaType = reuse ? (media.find((m) => m.name === name)?.mediaType ?? file.mediaType) : file.mediaType;
          mediaUrl = name;
          body = random.int(2) ? `Foto do pedido ${seq}` : name;
        } else if (seq % 211 === 0) {
          mediaType = 'vcard';
          body = `BEGIN:VCARD\nVERSION:3.0\nN:;Fulano ${seq};;;\nFN:Fulano ${seq}\nTEL;type=CELL;waid=5511987650000:+55 11 98765-0000\nEND:VCARD`;
        } else body = `${body} [${seq}]`;
        const quoted = ids.length > 0 && seq % 19 === 0 ? ids[random.int(ids.length)] : null;
        if (quoted) quotedMessageIds.push(id);
        const deleted = seq % 53 === 0;
        if (deleted) deletedMessageIds.push(id);
        const read = fromMe || t.status === 'closed' || k < t.messages - unread;
        const ack = fromMe ? random.pick([0, 1, 2, 3, 3, 3, 4]) : 0;
        const sender = fromMe ? null : group ? (random.pick(plainContacts) ?? null) : t.contactId;
        messageRows.push([id, body, ack, read, mediaType, mediaUrl, t.id, at(ms), at(ms + (fromMe ? 2000 : 0)), fromMe, deleted, sender, quoted]);
        ids.push(id);
        last = body;
      }
      const unreadMessages = t.id % 17 === 0 ? null : unread;
      ticketRows.push([t.id, t.status, last, t.contactId, t.userId, at(t.createdAt), at(ms), t.whatsappId, group, unreadMessages, t.queueId]);
    }
    await insert('Tickets', ticketColumns, ticketRows);
    await insert('Messages', messageColumns, messageRows);
  }

  await insert(
    'QuickAnswers',
    ['id', 'shortcut', 'message', 'createdAt', 'updatedAt'],
    [
      [1, 'bomdia', 'Bom dia! Como posso ajudar?', at(0), at(0)],
      [2, 'prazo', 'Nosso prazo de entrega é de 3 a 5 dias úteis.', at(0), at(0)],
      [3, 'pix', 'Chave PIX: financeiro@lojaexemplo.com.br\nEnvie o comprovante aqui.', at(0), at(0)],
      [4, 'horario', 'Atendemos de segunda a sexta, das 9h às 18h.', at(0), at(0)],
      [5, 'tchau', 'Obrigado pelo contato! 😊', at(0), at(0)],
    ],
  );
  await insert(
    'Settings',
    ['key', 'value', 'createdAt', 'updatedAt'],
    [
      ['userCreation', 'enabled', at(0), at(0)],
      ['userApiToken', '5a1f0b9e-26d4-4c1e-9b7a-0f8f2c3d4e5f', at(0), at(0)],
      ['call', 'disabled', at(0), at(0)],
    ],
  );

  const sample = (pred: (id: string) => boolean) => plans.find((p) => p.messages > 1 && p.contactId !== null && pred(String(p.id)))?.id;
  const ticketOf = async (messageId: string) =>
    (await db.query<{ ticketId: number }>(db.dialect === 'mysql' ? 'SELECT ticketId FROM Messages WHERE id = ?' : 'SELECT "ticketId" FROM "Messages" WHERE id = $1', [messageId]))[0]?.ticketId;
  const sampleTicketIds = [
    1,
    2,
    await ticketOf(media[0]?.messageId ?? ''),
    await ticketOf(quotedMessageIds[0] ?? ''),
    await ticketOf(deletedMessageIds[0] ?? ''),
    await ticketOf(missingMediaMessageId),
    sample((id) => isGroup[plans[Number(id) - 1]?.contactId ?? 0] === true),
  ]
    .filter((id): id is number => typeof id === 'number')
    .filter((id, i, all) => all.indexOf(id) === i);
  return {
    counts,
    users,
    queues,
    whatsapps: whatsapps.map((w) => ({ id: w.id, name: w.name, status: w.status })),
    conflict: { contactId: 1, number: contactRows[0]?.[2] as string, ticketIds: [1, 2] },
    oddNumbers,
    orphans: { userQueues: ['42:1', '2:99'], whatsappQueues: ['1:99', '99:2'] },
    media,
    missingMediaMessageId,
    quotedMessageIds,
    deletedMessageIds,
    sampleTicketIds,
  };
}
