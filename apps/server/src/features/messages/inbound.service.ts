/**
 * The inbound pipeline: what happens when a message reaches a connection. Contact upsert,
 * find-or-create ticket, stored message and media, unread count, queue menu and greetings,
 * live events. Idempotent per provider message id; one open ticket per contact and
 * connection is enforced by the database.
 */
import type { InboundHandler } from '../../channels/inbound-handler.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { isUniqueViolation } from '../../core/db/database.js';
import { nowIso } from '../../core/time.js';
import { findContactIdByNumber, nameUnnamedContact, setProfilePicture } from '../contacts/contacts.repository.js';
import * as tickets from '../tickets/tickets.repository.js';
import { createCallHandler } from './call-notice.service.js';
import { recentChatsOfConnection } from './history.repository.js';
import { announceRedelivered, emptyOutbox, publishContact, publishOutbox, type Outbox } from './inbound/batch-outbox.js';
import { INBOUND_WRITERS, splitByChat } from './inbound/chat-groups.js';
import { storeMedia } from './inbound/media.js';
import { readPipelineSettings, type PipelineSettings } from './inbound/pipeline-settings.js';
import { routeToQueue } from './inbound/queue-menu.js';
import { readQueueRules } from '../business-hours/business-hours.repository.js';
import { closedNowSuffix } from '../business-hours/out-of-hours.js';
import { writeInbound, type Prepared } from './inbound/write-inbound.js';
import { listConnectionQueues } from '../whatsapps/whatsapps.repository.js';
import { publishMessageUpdate } from './messages.presenter.js';
import * as messages from './messages.repository.js';
import type { InboundMessage } from '../../channels/channel.js';
import { createReactionHandler } from '../reactions/reactions.service.js';

/**
 * The connection's greeting and queue menu for a ticket that no queue took yet (after the
 * chatbot's flow ended without naming one): the queue a single-queue connection gives, and what to answer.
 */
export async function queueMenuFor(ctx: AppContext, ticket: { id: number; whatsappId: number; contactId: number }): Promise<{ queueId?: number; reply: string }> {
  const queues = await listConnectionQueues(ctx.db, ticket.whatsappId);
  const rules = { ruleOf: await readQueueRules(ctx.db), closedNowSuffix: await closedNowSuffix(ctx.db) };
  return routeToQueue(ctx.db, { ticketId: ticket.id, whatsappId: ticket.whatsappId, contactId: ticket.contactId, queues }, '', true, rules);
}

/** After a crash, the chats active this long before the restart are read again from the phone. */
export const CATCH_UP_WINDOW_MS = 24 * 60 * 60 * 1000;
export const CATCH_UP_CHATS_MAX = 20;

export function createInboundHandler(ctx: AppContext, sessions: SessionManager): InboundHandler {
  const pictureCheckedAt = new Map<number, number>();

  async function prepare(whatsappId: number, message: InboundMessage, settings: PipelineSettings): Promise<Prepared | undefined> {
    if (message.chat.kind === 'group' && !settings.acceptsGroups) return undefined;
    return { message, ...(await storeMedia(ctx, whatsappId, message)) };
  }

  /** Writes messages in one transaction, so nobody sees a ticket without its message. */
  async function writeTogether(whatsappId: number, prepared: Prepared[], settings: PipelineSettings): Promise<Outbox> {
    const outbox = emptyOutbox();
    await ctx.db.transaction().execute(async (trx) => {
      for (const p of prepared) await writeInbound(trx, { whatsappId, prepared: p, settings, outbox });
    });
    return outbox;
  }

  /** One group of a batch: written together and announced, or else each of its messages on its own. */
  async function writeGroup(whatsappId: number, group: Prepared[], settings: PipelineSettings): Promise<void> {
    let outbox: Outbox;
    try {
      outbox = await writeTogether(whatsappId, group, settings);
    } catch {
      let failure: unknown;
      for (const p of group) {
        await writeAlone(whatsappId, p, settings).catch((error: unknown) => {
          failure ??= error;
          ctx.events.publish('channel.error', { whatsappId, error });
        });
      }
      if (failure !== undefined) throw failure instanceof Error ? failure : new Error('an inbound message could not be written', { cause: failure });
      return;
    }
    ctx.log.debug({ whatsappId, providerIds: group.map((p) => p.message.providerId) }, 'inbound messages stored');
    await publishOutbox(ctx, sessions, whatsappId, outbox, pictureCheckedAt);
  }

  /** One message on its own; a race lost to another writer (a unique index) is settled by trying again. */
  async function writeAlone(whatsappId: number, prepared: Prepared, settings: PipelineSettings): Promise<void> {
    let outbox: Outbox;
    try {
      outbox = await writeTogether(whatsappId, [prepared], settings);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      outbox = await writeTogether(whatsappId, [prepared], settings);
    }
    await publishOutbox(ctx, sessions, whatsappId, outbox, pictureCheckedAt);
  }

  return {
    /**
     * A batch of messages in arrival order (the session manager collects what arrives while the
     * previous batch is written), split by chat into up to INBOUND_WRITERS groups written side by
     * side on PostgreSQL: each group in one transaction (one commit for all its messages instead of one per
     * write), a chat's messages one after the other in one group. Each write waits for its
     * database round trips, so one writer alone stored fewer than 200 messages a second on
     * PostgreSQL with the cores half idle. Should a group fail (a race with another writer aborts
     * a PostgreSQL transaction), each of its messages is written again on its own.
     */
    async messages(whatsappId, batch) {
      const settings = await readPipelineSettings(ctx.db, whatsappId);
      // Redeliveries are found with one read for the batch, before any ticket is chosen: a
      // message stored already neither opens a ticket again nor downloads its file again.
      const stored = await messages.storedIdsByProviderId(
        ctx.db,
        whatsappId,
        batch.map((m) => m.providerId),
      );
      const fresh = batch.filter((m) => !stored.has(m.providerId));
      const prepared = (await Promise.all(fresh.map((m) => prepare(whatsappId, m, settings)))).filter((p) => p !== undefined);
      // SQLite writes one transaction at a time: one group there, as side by side they would only wait for each other.
      const writers = ctx.dbKind === 'postgres' ? INBOUND_WRITERS : 1;
      const results = await Promise.allSettled(splitByChat(prepared, writers).map((group) => writeGroup(whatsappId, group, settings)));
      await announceRedelivered(ctx, stored.values());
      // A message that could not be written fails the batch, so its sender is not told it
      // arrived (it sends again, and the provider id keeps one row).
      const failure = results.find((r) => r.status === 'rejected');
      if (failure) throw failure.reason instanceof Error ? failure.reason : new Error('an inbound message could not be written', { cause: failure.reason });
    },

    async ack(whatsappId, providerId, ack) {
      const id = await messages.raiseAck(ctx.db, whatsappId, providerId, ack, nowIso());
      if (id !== undefined) await publishMessageUpdate(ctx, id);
    },

    /** The author's new text replaces the stored one, marked edited; deleted messages stay deleted. */
    async edit(whatsappId, { providerId, body }) {
      const id = await messages.editMessageBody(ctx.db, whatsappId, providerId, body, nowIso());
      if (id === undefined) return;
      // An edited text that is the chat's latest message is also the ticket's list line.
      const row = await messages.findMessageById(ctx.db, id);
      if (row && !row.mediaType && (await messages.isLatestOfTicket(ctx.db, row.ticketId, id))) {
        await tickets.setLastMessage(ctx.db, row.ticketId, body);
        const ticket = await tickets.findTicketById(ctx.db, row.ticketId);
        if (ticket) ctx.events.publish('ticket.saved', { ticket });
      }
      await publishMessageUpdate(ctx, id);
    },

    /**
     * Name and picture changes of people the inbox already knows (the address book is not
     * imported). The network's name fills in only a contact still named by its number; a
     * changed picture is looked up at once, a removed one cleared.
     */
    async contact(whatsappId, update) {
      const id = await findContactIdByNumber(ctx.db, update.number);
      if (id === undefined) return;
      const now = nowIso();
      let changed = update.name ? await nameUnnamedContact(ctx.db, id, update.name, now) : false;
      if (update.picture === 'removed') changed = (await setProfilePicture(ctx.db, id, '', now)) || changed;
      if (update.picture === 'changed') {
        pictureCheckedAt.set(id, Date.now());
        const url = await sessions.driver(whatsappId)?.profilePictureUrl({ kind: 'person', number: update.number });
        if (url) changed = (await setProfilePicture(ctx.db, id, url, now)) || changed;
      }
      if (changed) await publishContact(ctx, id, false);
    },

    /** The chats active in the last day (at most 20), each from its newest stored message. */
    async recentChats(whatsappId) {
      const since = new Date(Date.now() - CATCH_UP_WINDOW_MS).toISOString();
      const chats = await recentChatsOfConnection(ctx.db, whatsappId, since, CATCH_UP_CHATS_MAX);
      return chats.map((c) => ({
        chat: c.isGroup ? { kind: 'group' as const, groupId: c.number } : { kind: 'person' as const, number: c.number },
        after: { providerId: c.newest.providerId, fromMe: c.newest.fromMe, timestamp: new Date(c.newest.createdAt) },
      }));
    },

    /** See call-notice.service.ts. */
    call: createCallHandler(ctx, sessions),

    /** See reactions.service.ts. */
    reaction: createReactionHandler(ctx),

    async revoke(whatsappId, providerId) {
      const row = await messages.findMessageByProviderId(ctx.db, whatsappId, providerId);
      if (!row || row.isDeleted) return;
      await messages.updateMessage(ctx.db, row.id, { isDeleted: true }, nowIso());
      await publishMessageUpdate(ctx, row.id);
    },
  };
}
