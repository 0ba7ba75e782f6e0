/**
 * E-mail through the SMTP server of the settings (nodemailer). Every mail is stored first and
 * sent by the mail sender (jobs/mail.job.ts), retried with back-off; closing notices are stored
 * in the transaction that closes the ticket. Only the settings page's test mail goes out at once.
 */
import fs from 'node:fs';
import nodemailer from 'nodemailer';
import type { TEmail, TSendEmail } from '@zapdesk/shared/email';
import type { AppContext } from '../../core/context.js';
import type { Db } from '../../core/db/database.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { getSettingValue } from '../settings/settings.repository.js';
import { readSecretSetting } from '../settings/settings.service.js';
import { emailTexts, formatMoment } from './email-texts.js';
import * as repo from './email.repository.js';

export type EmailSettings = {
  host: string;
  port: number;
  security: 'starttls' | 'tls' | 'none';
  user: string;
  pass: string;
  from: string;
  to: string;
  language: string;
};

export async function readEmailSettings(ctx: AppContext): Promise<EmailSettings> {
  const security = await getSettingValue(ctx.db, 'emailSecurity');
  return {
    host: (await getSettingValue(ctx.db, 'emailHost')).trim(),
    port: Number(await getSettingValue(ctx.db, 'emailPort')) || 587,
    security: security === 'tls' || security === 'none' ? security : 'starttls',
    user: (await getSettingValue(ctx.db, 'emailUser')).trim(),
    pass: await readSecretSetting(ctx, 'emailPass'),
    from: (await getSettingValue(ctx.db, 'emailFrom')).trim(),
    to: (await getSettingValue(ctx.db, 'emailTo')).trim(),
    language: await getSettingValue(ctx.db, 'emailLanguage'),
  };
}

let caCache: { file: string; ca: Buffer } | undefined;

/** The transport for these settings. `SMTP_CA_FILE` adds a private certificate authority (self-signed servers). */
export function transportFor(ctx: AppContext, settings: EmailSettings) {
  const caFile = ctx.config.smtpCaFile;
  if (caFile && caCache?.file !== caFile) caCache = { file: caFile, ca: fs.readFileSync(caFile) };
  return nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.security === 'tls',
    requireTLS: settings.security === 'starttls',
    ignoreTLS: settings.security === 'none',
    ...(settings.user ? { auth: { user: settings.user, pass: settings.pass } } : {}),
    ...(caFile && caCache ? { tls: { ca: caCache.ca } } : {}),
    connectionTimeout: 15_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}

function senderOf(settings: EmailSettings): string {
  return settings.from || settings.user || `zapdesk@${settings.host || 'localhost'}`;
}

/** An SMTP error as one short line for the list of mails. */
export function smtpErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').trim().slice(0, 300) || 'unknown error';
}

/** Sends one stored mail now; throws what the SMTP server said. */
export async function deliver(ctx: AppContext, settings: EmailSettings, mail: repo.EmailRow): Promise<void> {
  if (!settings.host) throw new AppError('ERR_EMAIL_NOT_CONFIGURED');
  await transportFor(ctx, settings).sendMail({
    from: senderOf(settings),
    to: mail.toAddresses,
    subject: mail.subject,
    text: mail.body,
    attachments: mail.attachments.map((a) => ({ filename: a.filename, content: Buffer.from(a.base64, 'base64'), ...(a.contentType ? { contentType: a.contentType } : {}) })),
  });
}

/** The settings page's test: sent at once, so the answer says whether the settings work. */
export async function sendTestEmail(ctx: AppContext, to: string | undefined): Promise<{ to: string; messageId: string }> {
  const settings = await readEmailSettings(ctx);
  const target = to ?? settings.to;
  if (!settings.host || !target) throw new AppError('ERR_EMAIL_NOT_CONFIGURED');
  const texts = emailTexts(settings.language);
  try {
    const info = await transportFor(ctx, settings).sendMail({ from: senderOf(settings), to: target, subject: texts.testSubject, text: texts.testBody });
    return { to: target, messageId: String(info.messageId ?? '') };
  } catch (error) {
    throw new AppError('ERR_EMAIL_FAILED', { message: `The SMTP server did not take the e-mail: ${smtpErrorText(error)}` });
  }
}

/**
 * What closing notices need, read before the closing transaction (SQLite has one connection):
 * whether mail is set up, where notices go, their language. The password is read only to send.
 */
export type CloseNoticePlan = { settings: Pick<EmailSettings, 'to' | 'language'> } | undefined;

export async function closeNoticePlan(ctx: AppContext): Promise<CloseNoticePlan> {
  if (!(await getSettingValue(ctx.db, 'emailHost')).trim()) return undefined;
  return { settings: { to: (await getSettingValue(ctx.db, 'emailTo')).trim(), language: await getSettingValue(ctx.db, 'emailLanguage') } };
}

/**
 * Stores the closing notice of each ticket (spec 4): to `emailTo` and to the contact's e-mail
 * when it has one; ticket number, contact number, name and time, and the protocol number when
 * it was closed with one. Called inside the transaction that closes them.
 */
export async function queueCloseNotices(db: Db, plan: CloseNoticePlan, ticketIds: number[], now: string): Promise<number> {
  if (!plan || ticketIds.length === 0) return 0;
  const texts = emailTexts(plan.settings.language);
  const time = formatMoment(now, plan.settings.language);
  let queued = 0;
  for (const facts of await repo.ticketFacts(db, ticketIds)) {
    const to = [...new Set([plan.settings.to, facts.email.trim()].filter((a) => a !== ''))].join(', ');
    if (!to) continue;
    const f = { ticket: facts.ticketId, name: facts.name, number: facts.number, time, protocol: facts.protocol };
    const body = [texts.closeBody(f), ...(facts.protocol ? [texts.protocolLine(facts.protocol)] : [])].join('\n\n');
    await repo.insertEmail(db, { kind: 'close', ticketId: facts.ticketId, toAddresses: to, subject: texts.closeSubject(f), body, attachments: [] }, now);
    queued += 1;
  }
  return queued;
}

/** A stored mail to send soon: the sender is told at once. */
async function queue(ctx: AppContext, mail: repo.EmailInsert): Promise<{ id: number; status: 'queued' }> {
  const id = await repo.insertEmail(ctx.db, mail, nowIso());
  ctx.events.publish('email.queued', { count: 1 });
  return { id, status: 'queued' };
}

/** An attachment given as text, or as base64 when it starts with `base64:` or is a `data:…;base64,` URL. */
export function attachmentBytes(content: string): Buffer {
  const dataUrl = /^data:[^;,]*;base64,/i.exec(content);
  if (dataUrl) return Buffer.from(content.slice(dataUrl[0].length), 'base64');
  if (content.startsWith('base64:')) return Buffer.from(content.slice('base64:'.length), 'base64');
  return Buffer.from(content, 'utf8');
}

/** The tool API's `/zdgSendEmail*`: to `zdgTo`, or to `emailTo`. */
export async function queueApiEmail(ctx: AppContext, input: TSendEmail, ticketId: number | null = null): Promise<{ id: number; status: 'queued' }> {
  const settings = await readEmailSettings(ctx);
  const to = input.zdgTo ?? settings.to;
  if (!settings.host || !to) throw new AppError('ERR_EMAIL_NOT_CONFIGURED');
  const attachments: repo.StoredAttachment[] = [];
  if (input.zdgFileName !== undefined && input.zdgContent !== undefined) {
    const bytes = attachmentBytes(input.zdgContent);
    if (bytes.length > 10 * 1024 * 1024) throw new AppError('ERR_VALIDATION', { message: 'The attachment is larger than 10 MB.', fields: { zdgContent: 'TOO_BIG' } });
    attachments.push({ filename: input.zdgFileName, contentType: '', base64: bytes.toString('base64') });
  }
  return queue(ctx, { kind: attachments.length ? 'export' : 'api', ticketId, toAddresses: to, subject: input.zdgSubject, body: input.zdgText, attachments });
}

/** `/zdgProtocolo`: the protocol number the server gave the ticket, to `emailTo`. */
export async function queueProtocolEmail(ctx: AppContext, ticketId: number, user: string | undefined): Promise<{ id: number; status: 'queued' }> {
  const settings = await readEmailSettings(ctx);
  if (!settings.host || !settings.to) throw new AppError('ERR_EMAIL_NOT_CONFIGURED');
  const [facts] = await repo.ticketFacts(ctx.db, [ticketId]);
  if (!facts) throw new AppError('ERR_NO_TICKET_FOUND');
  if (!facts.protocol) throw new AppError('ERR_NO_PROTOCOL');
  const texts = emailTexts(settings.language);
  const f = { ticket: facts.ticketId, name: facts.name, number: facts.number, time: formatMoment(nowIso(), settings.language), protocol: facts.protocol, user: user ?? facts.userName ?? '' };
  return queue(ctx, { kind: 'protocol', ticketId, toAddresses: settings.to, subject: texts.protocolSubject(f), body: texts.protocolBody(f), attachments: [] });
}

export const EMAILS_PAGE_SIZE = 50;

export function presentEmail(row: repo.EmailRow): TEmail {
  return {
    id: row.id,
    kind: row.kind,
    to: row.toAddresses,
    subject: row.subject,
    ticketId: row.ticketId,
    attachments: row.attachments.map((a) => ({ filename: a.filename, size: Math.floor((a.base64.length * 3) / 4) })),
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: row.status === 'queued' ? row.nextAttemptAt : null,
    createdAt: row.createdAt,
    sentAt: row.sentAt,
  };
}

export async function listEmails(ctx: AppContext, query: { pageNumber: number; status?: TEmail['status'] | undefined }) {
  const offset = (query.pageNumber - 1) * EMAILS_PAGE_SIZE;
  const { rows, count } = await repo.listEmails(ctx.db, { status: query.status }, { limit: EMAILS_PAGE_SIZE, offset });
  return { emails: rows.map(presentEmail), count, hasMore: offset + rows.length < count };
}

/** An admin sends a failed mail again: it goes at once, with a fresh count of attempts. */
export async function retryEmail(ctx: AppContext, id: number): Promise<TEmail> {
  const now = nowIso();
  if (!(await repo.updateEmail(ctx.db, id, { status: 'queued', attempts: 0, nextAttemptAt: now }, { from: ['failed'], now }))) {
    if (!(await repo.findEmail(ctx.db, id))) throw new AppError('ERR_NO_EMAIL_FOUND');
    throw new AppError('ERR_EMAIL_NOT_FAILED');
  }
  ctx.events.publish('email.queued', { count: 1 });
  const row = await repo.findEmail(ctx.db, id);
  if (!row) throw new AppError('ERR_NO_EMAIL_FOUND');
  return presentEmail(row);
}
