/**
 * Sends through a ticket's connection: agent replies, greetings, queue menus, notices and
 * farewells all take this one path. A send names its agent or is the product's own, so the
 * dashboard tells an answer from a greeting. A reply is stored first (queued, with the provider
 * id it will go out under, in the same transaction as its outbound job), then sent; the result is
 * recorded on both. A crash between the two leaves a queued job that is sent at start under
 * the same id, so what was acknowledged is never lost and never arrives twice.
 */
import fs from 'node:fs/promises';
import type { MediaType } from '@zapdesk/shared/domain';
import { isErrorCode, type ErrorCode } from '@zapdesk/shared/errors';
import type { TTicket } from '@zapdesk/shared/messaging';
import type { ChatAddress, OutboundContent } from '../../channels/channel.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { findTicketById, touchTicket } from '../tickets/tickets.repository.js';
import { adoptMedia, mediaFile, saveMedia, signedMediaUrl } from './media-store.js';
import { documentLine, mediaLine, sentFile, type ReplyContent } from './message-file.js';
import { presentMessage, publishMessageUpdate } from './messages.presenter.js';
import { findMessageById, insertMessageRowOnce, setSendStatus } from './messages.repository.js';
import * as outbox from './outbox.repository.js';

/** A send that failed for a passing reason is tried again this many times in all... */
export const MAX_SEND_ATTEMPTS = 5;
/** ...after 5 s, 10 s, 20 s, 40 s. */
export const SEND_RETRY_BASE_MS = 5_000;
/** While the connection is down, a reply waits this long for it before it fails. */
export const SEND_WAIT_FOR_CONNECTION_MS = 60 * 60_000;

export function chatOf(ticket: TTicket): ChatAddress {
  return ticket.isGroup ? { kind: 'group', groupId: ticket.contact.number } : { kind: 'person', number: ticket.contact.number };
}

export type OutboundRequest = {
  ticket: TTicket;
  content: ReplyContent;
  quotedMsgId?: number | null;
  /** Sent by the chatbot: shown as the bot's in the chat. */
  fromBot?: boolean;
  /** The agent who wrote it in the inbox. Without one it is the product's own (automatic), no reply on the dashboard. */
  userId?: number;
};

export type SendOutcome = { status: 'sent' } | { status: 'queued' } | { status: 'failed'; error: ErrorCode };

function lastMessageText(content: ReplyContent): string {
  if (content.kind === 'text') return content.body;
  if (content.kind === 'voice') return mediaLine('audio', '');
  if (content.mediaType === 'other') return documentLine(content.filename);
  return content.caption || mediaLine(content.mediaType, content.filename);
}

function mediaTypeOf(content: ReplyContent): MediaType | null {
  if (content.kind === 'text') return null;
  if (content.kind === 'voice') return 'audio';
  return content.mediaType;
}

/**
 * Stores the message and its job, then tries the send at once. Answers with the message id
 * once the message is sent or queued for a later try; throws the channel's error when the send
 * failed for good (the message stays in the chat as failed, with a retry).
 */
export async function sendOnTicket(ctx: AppContext, sessions: SessionManager, request: OutboundRequest): Promise<number> {
  const { messageId, jobId } = await storeOnTicket(ctx, sessions, request);
  const outcome = await deliverJob(ctx, sessions, { id: jobId, whatsappId: request.ticket.whatsappId });
  if (outcome.status === 'failed') throw new AppError(outcome.error, { messageId });
  return messageId;
}

/**
 * The product's own notice that follows an action (the farewell, a transfer notice): stored as
 * outbound work like any reply, then sent in the background after the connection's sends already
 * under way, so the action answers at once however busy the phone is. A failed send shows in the
 * chat as failed, with a retry. Answers with the message id.
 */
export async function queueOnTicket(ctx: AppContext, sessions: SessionManager, request: OutboundRequest): Promise<number> {
  const { messageId, jobId } = await storeOnTicket(ctx, sessions, request);
  const { whatsappId } = request.ticket;
  void deliverJob(ctx, sessions, { id: jobId, whatsappId }).catch((error: unknown) => ctx.events.publish('channel.error', { whatsappId, error }));
  return messageId;
}

/** The message and its job, stored together and announced; the send is the caller's. */
async function storeOnTicket(ctx: AppContext, sessions: SessionManager, request: OutboundRequest): Promise<{ messageId: number; jobId: number }> {
  const { ticket, content } = request;
  const driver = await sessions.require(ticket.whatsappId);
  // Refused at once while the phone is offline: the agent learns it now, and nothing is stored
  // that they did not see go. Once accepted, a reply waits through a drop of the connection.
  if (!driver.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  const quoted = request.quotedMsgId ? await findMessageById(ctx.db, request.quotedMsgId) : undefined;
  // A note never reaches the phone, not even as the text of a quote.
  if (request.quotedMsgId && (!quoted || quoted.ticketId !== ticket.id || quoted.isNote)) throw new AppError('ERR_QUOTED_NOT_IN_TICKET', { fields: { quotedMsg: 'INVALID' } });

  // A voice note keeps the container it was recorded in (Ogg from Firefox, WebM from Chromium):
  // no extension in the name, so the stored file's extension, and the type it is served with, follow its mimetype.
  const fileName = { mimetype: content.kind === 'text' ? '' : content.mimetype, filename: content.kind === 'media' ? content.filename : 'voice' };
  // An upload is moved into the store as it is on disk; bytes in memory are written.
  const mediaPath =
    content.kind === 'text'
      ? null
      : 'staged' in content
        ? await adoptMedia(ctx, content.staged.path, fileName)
        : await saveMedia(ctx, Buffer.isBuffer(content.data) ? content.data : await fs.readFile(content.data.path), fileName);
  const stored: outbox.OutboxContent =
    content.kind === 'text'
      ? content
      : content.kind === 'voice'
        ? { kind: 'voice', mediaPath: mediaPath ?? '', mimetype: content.mimetype }
        : { kind: 'media', mediaType: content.mediaType, mediaPath: mediaPath ?? '', mimetype: content.mimetype, filename: content.filename, ...(content.caption ? { caption: content.caption } : {}) };
  const providerId = driver.newMessageId();
  const now = nowIso();
  const { messageId, jobId } = await ctx.db.transaction().execute(async (trx) => {
    const row = await insertMessageRowOnce(trx, {
      ticketId: ticket.id,
      whatsappId: ticket.whatsappId,
      providerId,
      contactId: null,
      body: content.kind === 'text' ? content.body : content.kind === 'media' ? (content.caption ?? '') : '',
      fromMe: true,
      read: true,
      ack: 0,
      mediaType: mediaTypeOf(content),
      mediaPath,
      ...sentFile(content),
      quotedMsgId: quoted?.id ?? null,
      sendStatus: 'queued',
      fromBot: request.fromBot ?? false,
      userId: request.userId ?? null,
      automatic: request.userId === undefined,
      createdAt: now,
    });
    if (!row) throw new AppError('ERR_CREATING_MESSAGE');
    const id = await outbox.insertJob(trx, { whatsappId: ticket.whatsappId, providerId, messageId: row.id, chat: chatOf(ticket), content: stored, quotedProviderId: quoted?.providerId ?? null }, now);
    await touchTicket(trx, ticket.id, { lastMessage: lastMessageText(content), incoming: false, byPerson: request.userId !== undefined, agentReply: request.userId !== undefined }, now);
    return { messageId: row.id, jobId: id };
  });
  const [row, updated] = await Promise.all([findMessageById(ctx.db, messageId), findTicketById(ctx.db, ticket.id)]);
  if (row && updated) {
    ctx.events.publish('message.saved', { message: await presentMessage(ctx, row), ticket: updated, created: true });
    ctx.events.publish('ticket.saved', { ticket: updated });
  }
  return { messageId, jobId };
}

/**
 * Tries one job now, after the connection's sends already under way, on the node that runs the
 * connection's session (this one, or another in the cluster mode). When no node answers, the
 * job stays queued for the node that takes the session over.
 */
export async function deliverJob(ctx: AppContext, sessions: SessionManager, job: { id: number; whatsappId: number }): Promise<SendOutcome> {
  if (sessions.owns(job.whatsappId)) return sessions.exclusive(job.whatsappId, () => attempt(ctx, sessions, job.id));
  const answer = await sessions.forward(job.whatsappId, DELIVER, { id: job.id }).catch((error: unknown) => {
    ctx.events.publish('channel.error', { whatsappId: job.whatsappId, error });
    return undefined;
  });
  return (answer as SendOutcome | undefined) ?? { status: 'queued' };
}

const DELIVER = 'outbound.deliver';

/** The node running a session sends the jobs that other nodes stored for it (see deliverJob). */
export function serveDeliveries(ctx: AppContext, sessions: SessionManager): void {
  sessions.handle(DELIVER, (whatsappId, payload) => deliverJob(ctx, sessions, { id: (payload as { id: number }).id, whatsappId }));
}

/**
 * The job's content with its stored file, which the driver reads as a stream (a reply's file is
 * never held whole in memory to be sent). With PUBLIC_URL set, a chat message's file also gets
 * its signed public address, for providers that fetch files themselves (Instagram).
 */
async function contentOf(ctx: AppContext, content: outbox.OutboxContent, messageId: number | null): Promise<OutboundContent> {
  if (content.kind === 'text') return content;
  const file = mediaFile(ctx, content.mediaPath);
  if (!file) throw new AppError('ERR_SENDING_WAPP_MSG', { message: 'The file of this message is gone.' });
  if (
    !(await fs.access(file).then(
      () => true,
      () => false,
    ))
  )
    throw new AppError('ERR_SENDING_WAPP_MSG', { message: 'The file of this message is gone.' });
  const data = { path: file };
  const url = ctx.config.publicUrl && messageId !== null ? { url: new URL(signedMediaUrl(ctx, messageId), ctx.config.publicUrl).toString() } : {};
  if (content.kind === 'voice') return { kind: 'voice', data, mimetype: content.mimetype, ...url };
  return { kind: 'media', mediaType: content.mediaType, data, mimetype: content.mimetype, filename: content.filename, ...(content.caption ? { caption: content.caption } : {}), ...url };
}

/** Errors that may pass: the connection is down or the send did not get through. */
function isPassing(code: ErrorCode): boolean {
  return code === 'ERR_WAPP_NOT_INITIALIZED' || code === 'ERR_SENDING_WAPP_MSG';
}

async function attempt(ctx: AppContext, sessions: SessionManager, id: number): Promise<SendOutcome> {
  if (!(await outbox.claimJob(ctx.db, id, nowIso()))) {
    // Sent, failed or being tried by someone else already: say where it stands.
    const job = await outbox.findJob(ctx.db, id);
    const row = job?.messageId ? await findMessageById(ctx.db, job.messageId) : undefined;
    if (row?.sendStatus === 'failed') return { status: 'failed', error: asErrorCode(row.sendError) };
    return { status: job?.status === 'sent' ? 'sent' : 'queued' };
  }
  const job = await outbox.findJob(ctx.db, id);
  if (!job) return { status: 'failed', error: 'ERR_SENDING_WAPP_MSG' };
  let outcome: SendOutcome;
  try {
    const driver = sessions.requireDriver(job.whatsappId);
    await driver.send(job.chat, await contentOf(ctx, job.content, job.messageId), { providerId: job.providerId, quotedProviderId: job.quotedProviderId ?? undefined });
    outcome = { status: 'sent' };
  } catch (error) {
    const code: ErrorCode = error instanceof AppError ? error.code : 'ERR_SENDING_WAPP_MSG';
    if (!(error instanceof AppError)) ctx.events.publish('channel.error', { whatsappId: job.whatsappId, error });
    outcome = retryLater(job, code) ? { status: 'queued' } : { status: 'failed', error: code };
    await record(ctx, job, outcome, code);
    return outcome;
  }
  await record(ctx, job, outcome);
  return outcome;
}

function retryLater(job: outbox.OutboxJob, code: ErrorCode): boolean {
  if (!isPassing(code)) return false;
  if (code === 'ERR_WAPP_NOT_INITIALIZED') return Date.now() - Date.parse(job.createdAt) < SEND_WAIT_FOR_CONNECTION_MS;
  return job.attempts < MAX_SEND_ATTEMPTS;
}

function retryDelayMs(job: outbox.OutboxJob, code: ErrorCode): number {
  if (code === 'ERR_WAPP_NOT_INITIALIZED') return 2 * SEND_RETRY_BASE_MS;
  return SEND_RETRY_BASE_MS * 2 ** Math.max(0, job.attempts - 1);
}

async function record(ctx: AppContext, job: outbox.OutboxJob, outcome: SendOutcome, code?: ErrorCode): Promise<void> {
  // Sent: detail. Queued again: handled. Failed for good: someone must look (the agent sees it too).
  const facts = { outboxId: job.id, messageId: job.messageId, whatsappId: job.whatsappId, attempts: job.attempts };
  if (outcome.status === 'sent') ctx.log.debug(facts, 'message sent');
  else if (outcome.status === 'queued') ctx.log.warn({ ...facts, code }, 'message not sent, tried again later');
  else ctx.log.error({ ...facts, code: outcome.error }, 'message failed for good');
  const now = nowIso();
  await ctx.db.transaction().execute(async (trx) => {
    if (outcome.status === 'sent') {
      await outbox.finishJob(trx, job.id, { status: 'sent' }, now);
      if (job.messageId) await setSendStatus(trx, job.messageId, { status: 'sent', ack: 1 }, now);
    } else if (outcome.status === 'queued') {
      await outbox.finishJob(
        trx,
        job.id,
        { status: 'queued', error: code ?? 'ERR_SENDING_WAPP_MSG', dueAt: new Date(Date.now() + retryDelayMs(job, code ?? 'ERR_SENDING_WAPP_MSG')).toISOString() },
        now,
      );
    } else {
      await outbox.finishJob(trx, job.id, { status: 'failed', error: outcome.error }, now);
      if (job.messageId) await setSendStatus(trx, job.messageId, { status: 'failed', error: outcome.error }, now);
    }
  });
  if (job.messageId && outcome.status !== 'queued') await publishMessageUpdate(ctx, job.messageId);
}

function asErrorCode(value: string | null): ErrorCode {
  return isErrorCode(value) ? value : 'ERR_SENDING_WAPP_MSG';
}

/** Sends the queued jobs that are due, each connection's in order; used by the outbound job. */
export async function sendDueJobs(ctx: AppContext, sessions: SessionManager, limit: number): Promise<number> {
  const jobs = await outbox.dueJobs(ctx.db, nowIso(), limit, sessions.clustered ? sessions.ownedIds() : undefined);
  await Promise.all(jobs.map((job) => deliverJob(ctx, sessions, job).catch((error: unknown) => ctx.events.publish('channel.error', { whatsappId: job.whatsappId, error }))));
  return jobs.length;
}

/**
 * A failed own message, tried again at the agent's request, to the chat as it is now (the
 * contact's number may have been corrected since).
 */
export async function retryMessage(ctx: AppContext, sessions: SessionManager, messageId: number, chat: ChatAddress): Promise<SendOutcome> {
  const job = await outbox.findJobByMessageId(ctx.db, messageId);
  if (!job) throw new AppError('ERR_MESSAGE_NOT_FAILED');
  if (!(await sessions.require(job.whatsappId)).connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  if (!(await outbox.requeueFailed(ctx.db, job.id, chat, nowIso()))) throw new AppError('ERR_MESSAGE_NOT_FAILED');
  await setSendStatus(ctx.db, messageId, { status: 'queued' }, nowIso());
  await publishMessageUpdate(ctx, messageId);
  return deliverJob(ctx, sessions, job);
}
