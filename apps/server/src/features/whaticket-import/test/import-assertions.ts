/**
 * What the import test checks after a clean run, each against the seed's facts or the source
 * itself: the report's numbers and the target's counts, conversations through the API (bodies,
 * order, fromMe, quotes, deletions, media bytes), sign-ins with whaticket passwords, queue
 * membership, connections (disconnected), contacts' numbers and the settled conflicts.
 */
import fs from 'node:fs';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { waitFor, type TestApp } from '../../../test/harness.js';
import { conversation, countRows, targetIdOf, type ImportReport } from './import-harness.js';
import type { SeedFacts } from './seed.js';
import type { SourceDb } from './whaticket-source.js';

type SourceMessage = { id: string; body: string; fromMe: unknown; isDeleted: unknown; mediaType: string | null; mediaUrl: string | null; quotedMsgId: string | null; createdAt: Date };

const change = (report: ImportReport, table: string, sourceId: string) => report.changes.filter((c) => c.table === table && c.sourceId === sourceId);

export async function checkReportAndCounts(t: TestApp, report: ImportReport, facts: SeedFacts): Promise<void> {
  expect(report.dryRun).toBe(false);
  for (const [table, n] of Object.entries(facts.counts)) {
    const numbers = report.tables[table];
    expect(numbers, `report.tables.${table}`).toBeDefined();
    if (!numbers) continue;
    expect({ table, read: numbers.read }).toEqual({ table, read: n });
    expect({ table, accounted: numbers.imported + numbers.existing + numbers.skipped }).toEqual({ table, accounted: n });
    const skipped = report.changes.filter((c) => c.table === table && c.action === 'skipped').length;
    expect({ table, skippedListed: skipped }).toEqual({ table, skippedListed: numbers.skipped });
  }
  for (const c of report.changes) expect(c.rule, JSON.stringify(c)).toMatch(/^[a-z-]+$/);
  const tables = report.tables;
  expect(await countRows(t, 'messages')).toBe(tables.Messages?.imported);
  expect(await countRows(t, 'tickets')).toBe(tables.Tickets?.imported);
  expect(await countRows(t, 'queues')).toBe(tables.Queues?.imported);
  expect(await countRows(t, 'quickAnswers')).toBe(tables.QuickAnswers?.imported);
  expect(await countRows(t, 'whatsapps')).toBe(tables.Whatsapps?.imported);
  expect(await countRows(t, 'users')).toBe(1 + (tables.Users?.imported ?? 0));
  expect(await countRows(t, 'contactExtraInfo')).toBe(tables.ContactCustomFields?.imported);
  // Only the messages of the ticket whose contact is gone may be left out.
  expect(tables.Messages?.imported).toBeGreaterThanOrEqual((facts.counts.Messages ?? 0) - 40);
  expect(tables.Tickets?.imported).toBeGreaterThanOrEqual((facts.counts.Tickets ?? 0) - 1);
  expect(await countRows(t, 'importPendingQuotes')).toBe(0);
}

async function sourceConversation(source: SourceDb, ticketId: number): Promise<SourceMessage[]> {
  const sqlText =
    source.dialect === 'mysql'
      ? 'SELECT id, body, fromMe, isDeleted, mediaType, mediaUrl, quotedMsgId, createdAt FROM Messages WHERE ticketId = ? ORDER BY createdAt, id'
      : 'SELECT id, body, "fromMe", "isDeleted", "mediaType", "mediaUrl", "quotedMsgId", "createdAt" FROM "Messages" WHERE "ticketId" = $1 ORDER BY "createdAt", id';
  return source.query<SourceMessage>(sqlText, [ticketId]);
}

const MEDIA_TYPES: Record<string, string[]> = { image: ['image'], audio: ['audio'], video: ['video'], application: ['application', 'document'] };

export type Seen = { messages: number; quoted: number; deleted: number; mediaBytes: number; mediaMissing: number };

/** One ticket's conversation through the API against the source's; adds what it compared to `seen`. */
export async function checkConversation(t: TestApp, source: SourceDb, facts: SeedFacts, sourceTicketId: number, report: ImportReport, seen: Seen): Promise<void> {
  const ticketId = await targetIdOf(t, 'Tickets', sourceTicketId);
  expect(ticketId, `ticket ${sourceTicketId} imported`).toBeDefined();
  const expected = await sourceConversation(source, sourceTicketId);
  const got = await conversation(t, ticketId ?? 0);
  const byId = new Map(expected.map((m) => [m.id, m]));
  const view = (m: SourceMessage) => ({ body: Number(m.isDeleted) ? '' : m.body, fromMe: Boolean(Number(m.fromMe)), isDeleted: Boolean(Number(m.isDeleted)), at: new Date(m.createdAt).getTime() });
  expect(
    got.map((m) => ({ body: m.body, fromMe: m.fromMe, isDeleted: m.isDeleted, at: new Date(m.createdAt).getTime() })),
    `conversation of ticket ${sourceTicketId}`,
  ).toEqual(expected.map(view));
  seen.messages += got.length;
  for (const [i, m] of got.entries()) {
    const src = expected[i];
    if (!src) continue;
    if (Number(src.isDeleted)) seen.deleted += 1;
    const quoted = src.quotedMsgId ? byId.get(src.quotedMsgId) : undefined;
    if (quoted) seen.quoted += 1;
    if (quoted) expect({ id: src.id, quoted: m.quotedMsg?.body }).toEqual({ id: src.id, quoted: Number(quoted.isDeleted) ? '' : quoted.body });
    else expect({ id: src.id, quoted: m.quotedMsg }).toEqual({ id: src.id, quoted: null });
    if (!src.mediaUrl) continue;
    const file = facts.media.find((f) => f.name === src.mediaUrl);
    if (src.id === facts.missingMediaMessageId || file?.exists === false) {
      expect(change(report, 'Messages', src.id).map((c) => c.rule)).toContain('media-missing');
      expect(m.mediaUrl).toBeNull();
      seen.mediaMissing += 1;
      continue;
    }
    expect(MEDIA_TYPES[src.mediaType ?? '']).toContain(m.mediaType);
    if (Number(src.isDeleted)) continue;
    expect(m.mediaUrl, `media of ${src.id}`).toBeTruthy();
    const res = await t.request({ method: 'GET', url: m.mediaUrl ?? '' });
    expect(res.statusCode).toBe(200);
    expect(Buffer.compare(res.rawPayload, fs.readFileSync(file?.path ?? '')), `bytes of ${src.mediaUrl}`).toBe(0);
    seen.mediaBytes += 1;
  }
}

type LoginAnswer = { token: string; user: { email: string; queues?: { name: string }[] } };

export async function checkUsersQueuesConnections(t: TestApp, report: ImportReport, facts: SeedFacts): Promise<void> {
  for (const u of facts.users) {
    const res = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: u.email, password: u.password || 'anything-at-all' } });
    if (!u.verifiable) {
      expect(res.statusCode, `${u.email} cannot sign in with an unverifiable hash`).toBe(401);
      expect(change(report, 'Users', String(u.id)).map((c) => c.rule)).toContain('hash-unverifiable');
      continue;
    }
    expect({ email: u.email, status: res.statusCode }).toEqual({ email: u.email, status: 200 });
    const queues = (res.json<LoginAnswer>().user.queues ?? []).map((q) => q.name).sort();
    const expectedQueues = u.queueIds.map((id) => facts.queues.find((q) => q.id === id)?.name).sort();
    expect({ email: u.email, queues }).toEqual({ email: u.email, queues: expectedQueues });
  }
  const wrong = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: facts.users[1]?.email, password: 'not-her-password' } });
  expect(wrong.statusCode).toBe(401);
  expect(change(report, 'Users', '5').map((c) => c.rule)).toContain('profile-unknown');

  const queues = (await t.request({ method: 'GET', url: '/api/queue', token: t.adminToken })).json<{ name: string; color: string; greetingMessage: string }[]>();
  for (const q of facts.queues) {
    const got = queues.find((x) => x.name === q.name);
    expect({ name: got?.name, color: got?.color.toLowerCase(), greeting: got?.greetingMessage ?? '' }).toEqual({ name: q.name, color: q.color.toLowerCase(), greeting: q.greetingMessage ?? '' });
  }
  for (const orphan of facts.orphans.userQueues) expect(change(report, 'UserQueues', orphan).map((c) => c.action)).toEqual(['skipped']);
  for (const orphan of facts.orphans.whatsappQueues) expect(change(report, 'WhatsappQueues', orphan).map((c) => c.action)).toEqual(['skipped']);

  // The restart opens each connection again: one that cannot connect (never scanned here) goes from
  // OPENING to DISCONNECTED, later on a busy machine.
  const listed = async () => (await t.request({ method: 'GET', url: '/api/whatsapp', token: t.adminToken })).json<{ name: string; status: string }[]>();
  const connections = await waitFor(listed, (rows) => facts.whatsapps.every((w) => rows.find((c) => c.name === w.name)?.status !== 'OPENING'));
  for (const w of facts.whatsapps) {
    expect({ name: w.name, status: connections.find((c) => c.name === w.name)?.status }).toEqual({ name: w.name, status: 'DISCONNECTED' });
    expect(
      report.warnings.some((line) => line.includes(w.name)),
      `a warning names connection ${w.name}`,
    ).toBe(true);
  }
  const answers = (await t.request({ method: 'GET', url: '/api/quickAnswers', token: t.adminToken })).json<{ quickAnswers: { shortcut: string; message: string }[] }>();
  expect(answers.quickAnswers.find((a) => a.shortcut.replace(/^\//, '') === 'pix')?.message).toBe('Chave PIX: financeiro@lojaexemplo.com.br\nEnvie o comprovante aqui.');
}

export async function checkContactsAndConflicts(t: TestApp, report: ImportReport, facts: SeedFacts): Promise<void> {
  const [first, second] = facts.conflict.ticketIds;
  const conflictRules = [...change(report, 'Tickets', String(first)), ...change(report, 'Tickets', String(second))].map((c) => c.rule);
  expect(conflictRules).toContain('duplicate-active-ticket');
  const contactId = await targetIdOf(t, 'Contacts', facts.conflict.contactId);
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from tickets where "contactId" = ${contactId ?? 0} and status in ('open', 'pending')`.execute(t.ctx.db);
  expect(Number(rows[0]?.n), 'one active ticket left for the contact that had two').toBe(1);
  expect(await targetIdOf(t, 'Tickets', first)).toBeDefined();
  expect(await targetIdOf(t, 'Tickets', second)).toBeDefined();

  const contactOf = async (sourceId: number) => {
    const id = await targetIdOf(t, 'Contacts', sourceId);
    const res = await t.request({ method: 'GET', url: `/api/contacts/${id ?? 0}`, token: t.adminToken });
    return res.json<{ id: number; number: string; isGroup: boolean; email: string; extraInfo?: { name: string; value: string }[] }>();
  };
  const oddIds = Object.keys(facts.oddNumbers).map(Number);
  const duplicate = oddIds.find((id) => facts.oddNumbers[id]?.startsWith('+') && !facts.oddNumbers[id]?.includes(' '));
  for (const id of oddIds.filter((x) => x !== duplicate && facts.oddNumbers[x] !== '')) {
    const digits = (facts.oddNumbers[id] ?? '').replace(/\D/g, '');
    expect({ id, number: (await contactOf(id)).number }).toEqual({ id, number: digits });
    expect(change(report, 'Contacts', String(id)).map((c) => c.rule)).toContain('number-normalised');
  }
  if (duplicate !== undefined) {
    expect(await targetIdOf(t, 'Contacts', duplicate), 'a number written twice is one contact').toBe(await targetIdOf(t, 'Contacts', 2));
    expect(change(report, 'Contacts', String(duplicate)).length).toBeGreaterThan(0);
  }
  const empty = oddIds.find((id) => facts.oddNumbers[id] === '');
  if (empty !== undefined) expect(change(report, 'Contacts', String(empty)).map((c) => c.rule)).toContain('number-empty');
  const group = await contactOf(5);
  expect(group.isGroup).toBe(true);
  const withFields = await contactOf(12);
  expect(withFields.email).toBe('cliente12@exemplo.com.br');
  expect((withFields.extraInfo ?? []).map((f) => f.name).sort()).toEqual(['CPF', 'Empresa']);
}
