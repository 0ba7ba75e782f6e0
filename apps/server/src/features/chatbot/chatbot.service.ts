/**
 * The Typebot chatbot on waiting tickets. A customer's message on a ticket nobody took (pending,
 * no user) is stored for the bot in the same transaction as the message, instead of the queue
 * menu; the chatbot worker (jobs/chatbot.job.ts) sends what arrived in a burst as one message to
 * Typebot and the bot's answers back through the connection. The bot stops on `typebotOff`, on a
 * message typed on the phone itself, when an agent takes the ticket, when the flow hands the
 * ticket to a queue (`#queue:<name or id>`) or ends (then the connection's queue menu follows).
 */
import fs from 'node:fs/promises';
import type { OutboundContent } from '../../channels/channel.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import type { Db } from '../../core/db/database.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { prepareFromUrl } from '../campaigns/campaign-media.js';
import { queueMenuFor } from '../messages/inbound.service.js';
import { mediaFile } from '../messages/media-store.js';
import { sendOnTicket } from '../messages/outbound.service.js';
import { findQueueById, findQueueIdByName } from '../queues/queues.repository.js';
import { getSettingValue } from '../settings/settings.repository.js';
import { findTicketById, updateTicket } from '../tickets/tickets.repository.js';
import * as repo from './chatbot.repository.js';
import { answerFor, continueChat, startChat, type BotOutput, type BotReply } from './typebot.client.js';

/** Typebot is asked again after TYPEBOT_RETRY_SECONDS (5 s), then twice that, then the bot gives up on that ticket. */
export const MAX_BOT_ATTEMPTS = 3;

export type BotSettings = { url: string; name: string; offKeyword: string; restartKeyword: string; sessionMinutes: number; debounceSeconds: number };

/** The bot's settings when it is on and set up; undefined otherwise. */
export async function readBotSettings(db: Db): Promise<BotSettings | undefined> {
  if ((await getSettingValue(db, 'typebot')) !== 'enabled') return undefined;
  const url = (await getSettingValue(db, 'typebotUrl')).trim();
  const name = (await getSettingValue(db, 'typebotName')).trim();
  if (!url || !name) return undefined;
  return {
    url,
    name,
    offKeyword: (await getSettingValue(db, 'typebotOff')).trim().toLowerCase(),
    restartKeyword: (await getSettingValue(db, 'typebotRestart')).trim().toLowerCase(),
    sessionMinutes: Number(await getSettingValue(db, 'typebotTime')) || 30,
    debounceSeconds: Math.min(60, Math.max(0, Number(await getSettingValue(db, 'typebotDebounce')) || 0)),
  };
}

/**
 * In the pipeline's transaction, for a customer's message on a ticket nobody took. True when
 * the bot takes it (no queue menu then); false when the bot is off on this ticket or was just
 * turned off by `typebotOff`.
 */
export async function takeInbound(db: Db, bot: BotSettings, ticketId: number, text: string, now: string): Promise<boolean> {
  const word = text.trim().toLowerCase();
  if (bot.offKeyword && word === bot.offKeyword) {
    await repo.saveSession(db, ticketId, { status: 'off' }, now);
    await repo.deleteTicketInputs(db, ticketId);
    return false;
  }
  if (bot.restartKeyword && word === bot.restartKeyword) {
    await repo.saveSession(db, ticketId, { status: 'active', sessionId: null, choices: [] }, now);
    await repo.insertInput(db, ticketId, { text: '', restart: true }, now);
    return true;
  }
  const session = await repo.findSession(db, ticketId);
  if (session && session.status !== 'active') return false;
  if (!session) await repo.saveSession(db, ticketId, { status: 'active' }, now);
  await repo.insertInput(db, ticketId, { text, restart: false }, now);
  return true;
}

/** A message typed on the phone itself (not through the product) in a chat the bot handles: the bot stops there. */
export async function stopOnPhoneMessage(db: Db, ticketId: number, now: string): Promise<void> {
  const session = await repo.findSession(db, ticketId);
  if (session?.status !== 'active') return;
  await repo.saveSession(db, ticketId, { status: 'off' }, now);
  await repo.deleteTicketInputs(db, ticketId);
}

/** The ticket is still the bot's: waiting, and nobody took it. */
async function stillWaiting(ctx: AppContext, ticketId: number) {
  const ticket = await findTicketById(ctx.db, ticketId);
  return ticket && ticket.status === 'pending' && ticket.userId === null ? ticket : undefined;
}

async function contentOf(ctx: AppContext, output: Exclude<BotOutput, { kind: 'pause' }>): Promise<OutboundContent> {
  if (output.kind === 'text') return { kind: 'text', body: output.body };
  // Fetched through the media guard: a flow cannot make the server reach inside its network.
  const prepared = await prepareFromUrl(ctx, output.url, { voice: false });
  const file = mediaFile(ctx, prepared.mediaPath);
  if (!file) throw new AppError('ERR_MEDIA_URL_FAILED');
  return { kind: 'media', mediaType: prepared.mediaType, data: await fs.readFile(file), mimetype: prepared.mimetype, filename: prepared.name };
}

async function recordError(ctx: AppContext, ticketId: number, error: unknown, patch: repo.SessionPatch = {}): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300);
  const now = nowIso();
  await repo.saveSession(ctx.db, ticketId, { ...patch, lastError: message, errorAt: now }, now);
  ctx.events.publish('chatbot.error', { ticketId, error: message });
}

/** The queue a flow named: by id, else by name. */
async function queueNamed(ctx: AppContext, nameOrId: string): Promise<number | undefined> {
  if (/^\d+$/.test(nameOrId)) {
    const byId = await findQueueById(ctx.db, Number(nameOrId));
    if (byId) return byId.id;
  }
  return findQueueIdByName(ctx.db, nameOrId);
}

/** The flow is over: the ticket goes to the queue it named, or gets the connection's queue menu. */
async function handOver(ctx: AppContext, sessions: SessionManager, ticketId: number, queue: string | undefined): Promise<void> {
  const ticket = await stillWaiting(ctx, ticketId);
  if (!ticket) return;
  const now = nowIso();
  if (queue !== undefined) {
    const queueId = await queueNamed(ctx, queue);
    if (queueId === undefined) {
      await recordError(ctx, ticketId, new Error(`The flow handed the ticket to the queue "${queue}", which does not exist.`));
      return;
    }
    await updateTicket(ctx.db, ticketId, { queueId }, now);
  } else {
    const routing = await queueMenuFor(ctx, ticket);
    if (routing.queueId !== undefined) await updateTicket(ctx.db, ticketId, { queueId: routing.queueId }, now);
    if (routing.reply.trim()) await sendOnTicket(ctx, sessions, { ticket, content: { kind: 'text', body: routing.reply } }).catch((error: unknown) => recordError(ctx, ticketId, error));
  }
  const updated = await findTicketById(ctx.db, ticketId);
  if (updated) ctx.events.publish('ticket.saved', { ticket: updated });
}

/** Waits; false when the server is stopping (the rest of the answer is not sent then). */
export type Sleep = (ms: number) => Promise<boolean>;

/**
 * What waited for the bot on one ticket goes to Typebot as one message, and its answers to the
 * customer in order, with the pauses the flow asks for. Typebot failing: tried again with
 * back-off, then the bot stops on that ticket and the error is kept for admins; the ticket waits
 * in the list as without a bot.
 */
export async function runTicket(ctx: AppContext, sessions: SessionManager, bot: BotSettings, ticketId: number, sleep: Sleep): Promise<void> {
  const inputs = await repo.inputsOf(ctx.db, ticketId);
  if (inputs.length === 0) return;
  const ids = inputs.map((i) => i.id);
  const session = await repo.findSession(ctx.db, ticketId);
  const ticket = await stillWaiting(ctx, ticketId);
  if (!ticket || session?.status !== 'active') {
    // An agent took it (or the bot was stopped) meanwhile: the bot is done here.
    await repo.deleteInputs(ctx.db, ids);
    if (session?.status === 'active') await repo.saveSession(ctx.db, ticketId, { status: 'ended' }, nowIso());
    return;
  }
  const restart = inputs.some((i) => i.restart);
  const text = inputs
    .filter((i) => !i.restart)
    .map((i) => i.text.trim())
    .filter((t) => t !== '')
    .join('\n');
  const expired = Date.now() - Date.parse(session.lastActivityAt) > bot.sessionMinutes * 60_000;
  const sessionId = restart || expired ? null : session.sessionId;

  let reply: BotReply;
  try {
    reply = sessionId
      ? await continueChat(bot.url, sessionId, answerFor(text, session.choices))
      : await startChat(bot.url, bot.name, { name: ticket.contact.name, number: ticket.contact.number, ticketId: String(ticket.id) });
    if (!sessionId && !reply.sessionId) throw new AppError('ERR_TYPEBOT_FAILED', { message: 'Typebot started no session.' });
  } catch (error) {
    const attempts = Math.max(...inputs.map((i) => i.attempts)) + 1;
    if (attempts >= MAX_BOT_ATTEMPTS) {
      await repo.deleteInputs(ctx.db, ids);
      await recordError(ctx, ticketId, error, { status: 'off' });
    } else {
      await repo.postponeInputs(ctx.db, ids, attempts, new Date(Date.now() + ctx.config.typebotRetrySeconds * 1000 * 2 ** (attempts - 1)).toISOString());
      await recordError(ctx, ticketId, error);
    }
    return;
  }

  // What was sent to the bot, where the conversation stands and the answers to send are
  // committed together: a restart sends what is left.
  const now = nowIso();
  const over = reply.ended || reply.queue !== undefined;
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deleteInputs(trx, ids);
    await repo.saveSession(
      trx,
      ticketId,
      { sessionId: reply.sessionId ?? sessionId, choices: reply.choices, lastActivityAt: now, lastError: null, errorAt: null, status: over ? 'ended' : 'active' },
      now,
    );
    await repo.savePending<BotOutput>(trx, ticketId, { outputs: reply.outputs, ...(over ? { handOver: reply.queue ?? null } : {}) }, now);
  });
  await deliverPending(ctx, sessions, ticketId, sleep);
}

/**
 * Sends the bot's stored answers in order, each one taken off the list once it is stored as a
 * message (at least once across a crash), then hands the ticket over when the flow is over. An
 * agent taking the ticket stops it at once.
 */
export async function deliverPending(ctx: AppContext, sessions: SessionManager, ticketId: number, sleep: Sleep): Promise<void> {
  const pending = await repo.findPending<BotOutput>(ctx.db, ticketId);
  if (!pending) return;
  const outputs = [...pending.outputs];
  while (outputs.length > 0) {
    const output = outputs[0];
    if (!output) break;
    if (output.kind === 'pause') {
      if (!(await sleep(output.ms))) return;
    } else {
      const current = await stillWaiting(ctx, ticketId);
      if (!current) {
        await repo.savePending(ctx.db, ticketId, undefined, nowIso());
        return;
      }
      try {
        await sendOnTicket(ctx, sessions, { ticket: current, content: await contentOf(ctx, output), fromBot: true });
      } catch (error) {
        await recordError(ctx, ticketId, error);
      }
    }
    outputs.shift();
    await repo.savePending(
      ctx.db,
      ticketId,
      outputs.length || pending.handOver !== undefined ? { outputs, ...(pending.handOver !== undefined ? { handOver: pending.handOver } : {}) } : undefined,
      nowIso(),
    );
  }
  if (pending.handOver !== undefined) await handOver(ctx, sessions, ticketId, pending.handOver ?? undefined);
  await repo.savePending(ctx.db, ticketId, undefined, nowIso());
}

/** The bot on one ticket, for its chat. */
export async function chatbotOfTicket(ctx: AppContext, ticketId: number) {
  const session = await repo.findSession(ctx.db, ticketId);
  return { status: session?.status ?? null, lastError: session?.lastError ?? null, errorAt: session?.errorAt ?? null };
}

/** The latest error of the bot, for the settings page. */
export async function chatbotStatus(ctx: AppContext) {
  const bot = await readBotSettings(ctx.db);
  return { enabled: bot !== undefined, lastError: (await repo.latestError(ctx.db)) ?? null };
}

/** The origin of a Typebot address, or '' when it is not an http(s) address. */
export function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : '';
  } catch {
    return '';
  }
}

/**
 * The address without a user name or password. Settings refuse them in typebotUrl; a value an
 * earlier version stored with them is still never shown to agents (nor would the bot's requests
 * carry them: fetch refuses such an address).
 */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  // Shown as typed otherwise (URL would add a trailing slash).
  if (parsed.username === '' && parsed.password === '') return url;
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

/** The page that frames Typebot: its address for signed-in users (not only admins), or null. */
export async function chatbotFrame(ctx: AppContext): Promise<{ url: string | null; enabled: boolean }> {
  const url = (await getSettingValue(ctx.db, 'typebotUrl')).trim();
  return { url: originOf(url) ? withoutCredentials(url) : null, enabled: (await getSettingValue(ctx.db, 'typebot')) === 'enabled' };
}

/**
 * The Typebot origin the security policy lets the app frame, kept current: at once on a change
 * made on any node (the change is relayed in the cluster mode).
 */
export async function trackTypebotOrigin(ctx: AppContext): Promise<{ origin: () => string; stop: () => void }> {
  let origin = originOf(await getSettingValue(ctx.db, 'typebotUrl'));
  const unsubscribe = ctx.events.subscribeCluster('setting.updated', ({ setting }) => {
    if (setting.key === 'typebotUrl') origin = originOf(setting.value);
  });
  return { origin: () => origin, stop: unsubscribe };
}
