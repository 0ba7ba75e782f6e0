/**
 * One recipient's send, exactly once. The recipient is claimed first (status 'sending', with
 * the provider id the message goes out under, committed), then sent, then its result recorded.
 * A crash between the claim and the result leaves 'sending': at the next start the phone is
 * asked whether it has that id (recoverInDoubt); what it cannot confirm becomes 'unknown' for
 * the operator to resend, never resent silently.
 */
import fs from 'node:fs/promises';
import type { MediaType } from '@zapdesk/shared/domain';
import { isGroupActionKind, type RecipientStatus } from '@zapdesk/shared/campaigns';
import { isErrorCode, type ErrorCode } from '@zapdesk/shared/errors';
import { renderVariables } from '@zapdesk/shared/variables';
import type { ChannelDriver, ChatAddress, GroupChange, OutboundContent } from '../../channels/channel.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { numberVariants } from '@zapdesk/shared/phone-numbers';
import { findContactByAnyNumber, findGroupContact } from '../contacts/contacts.repository.js';
import { mediaFile } from '../messages/media-store.js';
import { mediaLine, sentFile } from '../messages/message-file.js';
import { presentMessage, publishMessageUpdate } from '../messages/messages.presenter.js';
import { findMessageByProviderId, insertMessageRowOnce, setSendStatus } from '../messages/messages.repository.js';
import { findLatestTicketId, findTicketById, touchTicket } from '../tickets/tickets.repository.js';
import type { CampaignRow } from './campaigns.repository.js';
import { claimRecipient, recipientsInDoubt, setRecipientStatus, type NextRecipient, type RecipientRow } from './recipients.repository.js';

export type SendOutcome = { status: 'sent' } | { status: 'notSent'; error: ErrorCode; passing: boolean };

/** The connection is away: the recipient goes back to the queue and the campaign waits. */
export function isConnectionLost(code: ErrorCode): boolean {
  return code === 'ERR_WAPP_NOT_INITIALIZED';
}

function mediaTypeOf(campaign: CampaignRow): MediaType | null {
  if (campaign.kind === 'text' || isGroupActionKind(campaign.kind)) return null;
  if (campaign.kind === 'voice') return 'audio';
  return campaign.mediaType === 'image' || campaign.mediaType === 'video' || campaign.mediaType === 'audio' ? campaign.mediaType : 'other';
}

/** The file of a campaign, read once per send (it may be large; the campaign keeps the path only). */
async function contentFor(ctx: AppContext, campaign: CampaignRow, body: string): Promise<OutboundContent> {
  if (campaign.kind === 'text') return { kind: 'text', body };
  const file = campaign.mediaPath ? mediaFile(ctx, campaign.mediaPath) : undefined;
  if (!file || !campaign.mediaMimetype) throw new AppError('ERR_SENDING_WAPP_MSG', { message: 'The file of this send is gone.' });
  const data = await fs.readFile(file);
  if (campaign.kind === 'voice') return { kind: 'voice', data, mimetype: campaign.mediaMimetype };
  return { kind: 'media', mediaType: mediaTypeOf(campaign) ?? 'other', data, mimetype: campaign.mediaMimetype, filename: campaign.mediaName ?? 'file', ...(body ? { caption: body } : {}) };
}

function lastMessageText(campaign: CampaignRow, body: string): string {
  if (campaign.kind === 'text') return body;
  if (campaign.kind === 'voice') return mediaLine('audio', '');
  const mediaType = mediaTypeOf(campaign) ?? 'other';
  if (mediaType === 'other') return mediaLine('other', campaign.mediaName ?? 'file');
  return body || mediaLine(mediaType, campaign.mediaName ?? '');
}

/**
 * The message goes into the contact's latest ticket on the connection when there is one, stored
 * with the same provider id before the send, so an agent sees what the contact got. A campaign
 * or tool-API send is marked automatic: it is no agent's answer to the contact.
 */
async function storeInTicket(ctx: AppContext, campaign: CampaignRow, contact: { id: number } | undefined, providerId: string, content: OutboundContent): Promise<void> {
  const body = content.kind === 'text' ? content.body : content.kind === 'media' ? (content.caption ?? '') : '';
  const whatsappId = campaign.whatsappId;
  const ticketId = contact && whatsappId !== null ? await findLatestTicketId(ctx.db, contact.id, whatsappId) : undefined;
  if (!ticketId || whatsappId === null) return;
  const now = nowIso();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const inserted = await insertMessageRowOnce(trx, {
      ticketId,
      whatsappId,
      providerId,
      contactId: null,
      body: campaign.kind === 'voice' ? '' : body,
      fromMe: true,
      read: true,
      ack: 0,
      mediaType: mediaTypeOf(campaign),
      mediaPath: campaign.mediaPath,
      ...sentFile(content),
      quotedMsgId: null,
      sendStatus: 'queued',
      automatic: true,
      createdAt: now,
    });
    if (inserted) await touchTicket(trx, ticketId, { lastMessage: lastMessageText(campaign, body), incoming: false, byPerson: false }, now);
    return inserted;
  });
  const ticket = row && (await findTicketById(ctx.db, ticketId));
  if (!row || !ticket) return;
  ctx.events.publish('message.saved', { message: await presentMessage(ctx, row), ticket, created: true });
  ctx.events.publish('ticket.saved', { ticket });
}

/** The ticket's copy of the message follows the recipient's result. */
async function recordInTicket(ctx: AppContext, whatsappId: number | null, providerId: string, result: { status: 'sent' } | { status: 'failed'; error: string }): Promise<void> {
  if (whatsappId === null) return;
  const message = await findMessageByProviderId(ctx.db, whatsappId, providerId);
  if (!message) return;
  const now = nowIso();
  if (result.status === 'sent') await setSendStatus(ctx.db, message.id, { status: 'sent', ack: 1 }, now);
  else await setSendStatus(ctx.db, message.id, { status: 'failed', error: result.error }, now);
  await publishMessageUpdate(ctx, message.id);
}

/** What a group action changes in a group. */
function groupChange(campaign: CampaignRow): GroupChange | undefined {
  switch (campaign.kind) {
    case 'groupSubject':
      return { subject: campaign.message };
    case 'groupDescription':
      return { description: campaign.message };
    case 'groupOpen':
      return { announce: false };
    case 'groupClose':
      return { announce: true };
    default:
      return undefined;
  }
}

/**
 * A group's turn: its action done, or the message sent in it. Where only admins may do this and
 * the connection's number is not one, nothing is tried: the group is reported not admin.
 */
async function sendToGroup(ctx: AppContext, driver: ChannelDriver, campaign: CampaignRow, groupId: string, providerId: string, connectionName: string): Promise<void> {
  const group = await driver.groupInfo(groupId);
  const isAdmin = group.participants.some((p) => p.me && p.admin);
  const change = groupChange(campaign);
  if (change) {
    const adminsOnly = 'announce' in change || group.restrict;
    if (adminsOnly && !isAdmin) throw new AppError('ERR_GROUP_NOT_ADMIN');
    await driver.updateGroup(groupId, change);
    return;
  }
  if (group.announce && !isAdmin) throw new AppError('ERR_GROUP_NOT_ADMIN');
  const contact = await findGroupContact(ctx.db, groupId);
  const body = renderVariables(campaign.message, { name: group.subject, connection: connectionName });
  const content = await contentFor(ctx, campaign, body);
  await storeInTicket(ctx, campaign, contact, providerId, content);
  await driver.send({ kind: 'group', groupId }, content, { providerId });
}

async function sendToPerson(ctx: AppContext, driver: ChannelDriver, campaign: CampaignRow, number: string, providerId: string, connectionName: string): Promise<void> {
  const contact = await findContactByAnyNumber(ctx.db, numberVariants(number));
  const body = renderVariables(campaign.message, { name: contact?.name ?? '', connection: connectionName });
  // Where the network can tell, a number without an account is not sent to.
  const exists = await driver.checkNumber(number);
  if (exists === undefined) throw new AppError('ERR_WAPP_INVALID_CONTACT');
  const content = await contentFor(ctx, campaign, body);
  await storeInTicket(ctx, campaign, contact, providerId, content);
  await driver.send({ kind: 'person', number: exists }, content, { providerId });
}

/**
 * Sends one claimed-to-be recipient. Returns undefined when the claim was lost (a pause or a
 * cancel came first): nothing was sent.
 */
export async function sendToRecipient(ctx: AppContext, driver: ChannelDriver, campaign: CampaignRow, recipient: NextRecipient, connectionName: string): Promise<SendOutcome | undefined> {
  // A recipient that was claimed before and is known not to have left keeps its id.
  const providerId = recipient.providerId ?? driver.newMessageId();
  if (!(await claimRecipient(ctx.db, recipient.id, providerId, nowIso()))) return undefined;
  let outcome: SendOutcome;
  try {
    if (recipient.groupId !== null) await sendToGroup(ctx, driver, campaign, recipient.groupId, providerId, connectionName);
    else await sendToPerson(ctx, driver, campaign, recipient.number, providerId, connectionName);
    outcome = { status: 'sent' };
  } catch (error) {
    const code: ErrorCode = error instanceof AppError && isErrorCode(error.code) ? error.code : 'ERR_SENDING_WAPP_MSG';
    if (!(error instanceof AppError) && campaign.whatsappId !== null) ctx.events.publish('channel.error', { whatsappId: campaign.whatsappId, error });
    outcome = { status: 'notSent', error: code, passing: isConnectionLost(code) };
  }
  await recordOutcome(ctx, campaign.whatsappId, recipient.id, providerId, outcome);
  return outcome;
}

/** Where a recipient's send did not happen, the status that says why. */
function notSentStatus(code: ErrorCode): RecipientStatus {
  if (code === 'ERR_WAPP_INVALID_CONTACT') return 'notOnWhatsapp';
  if (code === 'ERR_GROUP_NOT_ADMIN') return 'notAdmin';
  return 'failed';
}

async function recordOutcome(ctx: AppContext, whatsappId: number | null, recipientId: number, providerId: string, outcome: SendOutcome): Promise<void> {
  const now = nowIso();
  if (outcome.status === 'sent') {
    await setRecipientStatus(ctx.db, recipientId, { status: 'sent', sentAt: now, error: null }, { from: ['sending'], now });
    await recordInTicket(ctx, whatsappId, providerId, { status: 'sent' });
    return;
  }
  if (outcome.passing) {
    // Not sent: the phone was away. It goes out later.
    await setRecipientStatus(ctx.db, recipientId, { status: 'queued', error: outcome.error }, { from: ['sending'], now });
    return;
  }
  await setRecipientStatus(ctx.db, recipientId, { status: notSentStatus(outcome.error), error: outcome.error }, { from: ['sending'], now });
  await recordInTicket(ctx, whatsappId, providerId, { status: 'failed', error: outcome.error });
}

function addressOf(recipient: RecipientRow): ChatAddress | undefined {
  if (recipient.groupId !== null) return { kind: 'group', groupId: recipient.groupId };
  return recipient.number !== null ? { kind: 'person', number: recipient.number } : undefined;
}

/**
 * After a crash: each recipient left 'sending' on this connection is asked about. The phone has
 * it: sent. The phone says it never got it: queued again (it goes out under the same id). The
 * phone cannot tell: unknown. A group action is done again (setting a name twice is harmless).
 * Returns the campaigns touched.
 */
export async function recoverInDoubt(ctx: AppContext, whatsappId: number | null, driver: ChannelDriver | undefined): Promise<number[]> {
  const touched = new Set<number>();
  for (const recipient of await recipientsInDoubt(ctx.db, whatsappId)) {
    const now = nowIso();
    const address = addressOf(recipient);
    const confirmed = isGroupActionKind(recipient.campaignKind)
      ? false
      : driver && address && recipient.providerId
        ? await driver.confirmSent(address, recipient.providerId).catch(() => undefined)
        : undefined;
    if (confirmed === true) {
      await setRecipientStatus(ctx.db, recipient.id, { status: 'sent', sentAt: now, error: null }, { from: ['sending'], now });
      if (recipient.providerId) await recordInTicket(ctx, whatsappId, recipient.providerId, { status: 'sent' });
    } else if (confirmed === false) {
      await setRecipientStatus(ctx.db, recipient.id, { status: 'queued' }, { from: ['sending'], now });
    } else {
      await setRecipientStatus(ctx.db, recipient.id, { status: 'unknown', error: 'ERR_SEND_IN_DOUBT' }, { from: ['sending'], now });
    }
    touched.add(recipient.campaignId);
  }
  return [...touched];
}
