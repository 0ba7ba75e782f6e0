/**
 * The one place that builds and reads WhatsApp JIDs. The rest of the product speaks in
 * ChatAddress: a person by phone number in digits, or a group by its id.
 *
 * Baileys 7 addresses people by LID (`<digits>@lid`, a per-user id that is not a phone number)
 * as often as by phone number. A person is keyed on the phone number whenever one is known
 * (the key's `remoteJidAlt` / `participantAlt`, else the stored LID -> PN mapping); the LID
 * digits stand in only when no phone number is known, and are then flagged so that replies
 * go back to the LID.
 */
import {
  isHostedLidUser,
  isHostedPnUser,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isJidStatusBroadcast,
  isLidUser,
  isPnUser,
  jidDecode,
  jidNormalizedUser,
  type WAMessageKey,
} from '@whiskeysockets/baileys';
import { AppError } from '../../core/errors.js';
import type { ChatAddress } from '../channel.js';

const PN_SERVER = 's.whatsapp.net';
const LID_SERVER = 'lid';
const GROUP_SERVER = 'g.us';

/** Reads the stored LID -> phone-number pairs (Baileys' `signalRepository.lidMapping.getPNForLID`). */
export type PnForLid = (lid: string) => Promise<string | null | undefined>;

/** A person as the driver saw them: `viaLid` when `number` holds LID digits, no phone number being known. */
export type ResolvedPerson = { number: string; viaLid: boolean };

export type ResolvedChat = { chat: ChatAddress; sender?: ResolvedPerson; lidOnly: string[] };

const DIGITS = /^\d{5,20}$/;

/** Business accounts hosted by Meta use `@hosted` / `@hosted.lid`: the same person forms. */
function isPhoneJid(jid: string): boolean {
  return Boolean(isPnUser(jid) || isHostedPnUser(jid));
}

function isLidJid(jid: string): boolean {
  return Boolean(isLidUser(jid) || isHostedLidUser(jid));
}
const GROUP_ID = /^\d{5,30}(-\d{5,15})?$/;

function requireDigits(number: string): string {
  if (!DIGITS.test(number)) throw new AppError('ERR_WAPP_INVALID_CONTACT');
  return number;
}

export function personJid(number: string): string {
  return `${requireDigits(number)}@${PN_SERVER}`;
}

export function lidJid(lidDigits: string): string {
  return `${requireDigits(lidDigits)}@${LID_SERVER}`;
}

export function groupJid(groupId: string): string {
  if (!GROUP_ID.test(groupId)) throw new AppError('ERR_WAPP_INVALID_CONTACT');
  return `${groupId}@${GROUP_SERVER}`;
}

/** The JID to send to. `viaLid` says a person's number is in fact LID digits. */
export function chatJid(chat: ChatAddress, options: { viaLid?: boolean } = {}): string {
  if (chat.kind === 'group') return groupJid(chat.groupId);
  return options.viaLid ? lidJid(chat.number) : personJid(chat.number);
}

/** Chats the product never handles: status stories, broadcast lists, channels (newsletters). */
export function isIgnoredJid(jid: string | null | undefined): boolean {
  if (!jid) return true;
  return Boolean(isJidStatusBroadcast(jid) || isJidBroadcast(jid) || isJidNewsletter(jid));
}

/** The user part of a JID without its device (`5511999:3@s.whatsapp.net` -> `5511999`). */
export function jidUser(jid: string | null | undefined): string | undefined {
  return jidDecode(jid ?? undefined)?.user || undefined;
}

/** Whether two JIDs name the same account, devices aside (a phone number never equals a LID). */
export function sameAccount(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const normalized = jidNormalizedUser(a);
  return normalized !== '' && normalized === jidNormalizedUser(b);
}

/** The phone number of a person JID, resolving a LID to the phone number when one is known. */
export async function resolvePerson(jid: string, alt: string | null | undefined, pnForLid: PnForLid): Promise<ResolvedPerson | undefined> {
  const normalized = jidNormalizedUser(jid);
  if (isPhoneJid(normalized)) {
    const user = jidUser(normalized);
    return user ? { number: user, viaLid: false } : undefined;
  }
  if (!isLidJid(normalized)) return undefined;
  const altUser = alt && isPhoneJid(jidNormalizedUser(alt)) ? jidUser(alt) : undefined;
  if (altUser) return { number: altUser, viaLid: false };
  const pn = await pnForLid(normalized).catch(() => undefined);
  const pnUser = pn ? jidUser(jidNormalizedUser(pn)) : undefined;
  if (pnUser) return { number: pnUser, viaLid: false };
  const lidUser = jidUser(normalized);
  return lidUser ? { number: lidUser, viaLid: true } : undefined;
}

/**
 * The chat and sender of a message key; undefined for chats the product ignores. Own messages
 * have no sender. `lidOnly` lists the numbers that are LID digits.
 */
export async function resolveKey(key: WAMessageKey, pnForLid: PnForLid): Promise<ResolvedChat | undefined> {
  const remoteJid = key.remoteJid;
  if (!remoteJid || isIgnoredJid(remoteJid)) return undefined;
  if (isJidGroup(remoteJid)) {
    const groupId = jidUser(remoteJid);
    if (!groupId) return undefined;
    const sender = !key.fromMe && key.participant ? await resolvePerson(key.participant, key.participantAlt, pnForLid) : undefined;
    return { chat: { kind: 'group', groupId }, ...(sender ? { sender } : {}), lidOnly: sender?.viaLid ? [sender.number] : [] };
  }
  const person = await resolvePerson(remoteJid, key.remoteJidAlt, pnForLid);
  if (!person) return undefined;
  return { chat: { kind: 'person', number: person.number }, ...(key.fromMe ? {} : { sender: person }), lidOnly: person.viaLid ? [person.number] : [] };
}
