/**
 * Groups: their metadata, read once per group (never once per message) and kept small, and the
 * contract's group calls (list, read, create, change).
 */
import type { BaileysEventMap, GroupMetadata } from '@whiskeysockets/baileys';
import { AppError } from '../../core/errors.js';
import type { GroupChange, GroupCreated, GroupInfo, GroupParticipant } from '../channel.js';
import { BoundedMap } from '../bounded-map.js';
import { groupJid, jidUser, personJid, resolvePerson, sameAccount, type PnForLid } from './jid.js';
import type { WhatsappAddressing } from './whatsapp-addressing.js';
import type { BaileysLogger } from './whatsapp-logger.js';
import { statusCodeOf, type WASocketLike } from './whatsapp-socket.js';

const GROUP_CACHE_SIZE = 1_000;
/** A group whose metadata could not be read is asked again after this long, not on every message. */
const GROUP_RETRY_MS = 10 * 60_000;

export type WhatsappGroupsOptions = {
  logger: BaileysLogger;
  addressing: WhatsappAddressing;
  /** The number's canonical form when it has an account, else undefined (WhatsappOutbound.checkNumber). */
  checkNumber: (sock: WASocketLike, number: string) => Promise<string | undefined>;
};

type GroupAction = 'list' | 'read' | 'create' | 'update';

/** WhatsApp's error texts, for errors that carry no usable code. */
const ERROR_TEXTS: Record<string, number> = { 'not-authorized': 401, forbidden: 403, 'item-not-found': 404, 'rate-overlimit': 429 };

/**
 * The code of a failed group request. Baileys puts WhatsApp's code in the Boom's `data` (its
 * statusCode is then 500), except for a few errors that carry it as the statusCode.
 */
function groupErrorCode(error: unknown): number | undefined {
  if (typeof error === 'object' && error !== null && 'data' in error && typeof error.data === 'number') return error.data;
  const status = statusCodeOf(error);
  if (status !== undefined && status !== 500) return status;
  const text = error instanceof Error ? ERROR_TEXTS[error.message] : undefined;
  return text ?? status;
}

function pnForLidOf(sock: WASocketLike): PnForLid {
  return (lid) => sock.signalRepository.lidMapping.getPNForLID(lid);
}

export class WhatsappGroups {
  readonly #o: WhatsappGroupsOptions;
  readonly #groups = new BoundedMap<string, { metadata: GroupMetadata } | { failedAt: number }>(GROUP_CACHE_SIZE);
  readonly #fetches = new Map<string, Promise<void>>();

  constructor(options: WhatsappGroupsOptions) {
    this.#o = options;
  }

  /** What Baileys asks for through `cachedGroupMetadata`. */
  cached(jid: string): GroupMetadata | undefined {
    const cached = this.#groups.get(jid);
    return cached && 'metadata' in cached ? cached.metadata : undefined;
  }

  upsert(groups: GroupMetadata[]): void {
    for (const g of groups) this.#groups.set(g.id, { metadata: g });
  }

  /** Changes WhatsApp reports (subject, description, settings) land on the known groups. */
  update(updates: BaileysEventMap['groups.update']): void {
    for (const { id, ...fields } of updates) {
      if (id) this.#patch(id, fields);
    }
  }

  /** The group's subject, asking WhatsApp once when it is not known (or failed long enough ago). */
  async subjectOf(sock: WASocketLike, jid: string): Promise<{ subject: string } | undefined> {
    const cached = this.#groups.get(jid);
    if (!cached || ('failedAt' in cached && Date.now() - cached.failedAt > GROUP_RETRY_MS)) {
      let pending = this.#fetches.get(jid);
      if (!pending) {
        pending = sock
          .groupMetadata(jid)
          .then(
            (metadata) => this.#groups.set(jid, { metadata }),
            (error: unknown) => {
              this.#o.logger.warn({ err: error, jid }, 'group metadata unavailable');
              this.#groups.set(jid, { failedAt: Date.now() });
            },
          )
          .finally(() => this.#fetches.delete(jid));
        this.#fetches.set(jid, pending);
      }
      await pending;
    }
    const subject = this.cached(jid)?.subject;
    return subject ? { subject } : undefined;
  }

  /** Every group the number belongs to. A community itself is no chat: its groups are listed, not it. */
  async listGroups(sock: WASocketLike): Promise<GroupInfo[]> {
    let all: Record<string, GroupMetadata>;
    try {
      all = await sock.groupFetchAllParticipating();
    } catch (error) {
      throw this.#failure(error, 'list', {});
    }
    const groups = Object.values(all);
    this.upsert(groups);
    const infos: GroupInfo[] = [];
    for (const metadata of groups) {
      const groupId = jidUser(metadata.id);
      if (groupId && !metadata.isCommunity) infos.push(await this.#info(sock, groupId, metadata));
    }
    return infos;
  }

  async groupInfo(sock: WASocketLike, groupId: string): Promise<GroupInfo> {
    const jid = groupJid(groupId);
    let metadata: GroupMetadata;
    try {
      metadata = await sock.groupMetadata(jid);
    } catch (error) {
      throw this.#failure(error, 'read', { jid });
    }
    this.upsert([metadata]);
    return this.#info(sock, groupId, metadata);
  }

  /**
   * Creates the group with the numbers that have an account. Those WhatsApp did not add (their
   * privacy settings) come back as refused.
   */
  async createGroup(sock: WASocketLike, subject: string, numbers: string[]): Promise<GroupCreated> {
    const own = await this.#ownNumber(sock);
    const requested = [...new Set(numbers)].filter((n) => n !== own);
    const failed: GroupCreated['failed'] = [];
    const members: { number: string; canonical: string }[] = [];
    // One at a time: WhatsApp throttles bursts of number checks.
    for (const number of requested) {
      const canonical = await this.#o.checkNumber(sock, number);
      if (canonical) members.push({ number, canonical });
      else failed.push({ number, error: 'ERR_WAPP_INVALID_CONTACT' });
    }
    let metadata: GroupMetadata;
    try {
      metadata = await sock.groupCreate(subject, [...new Set(members.map((m) => personJid(m.canonical)))]);
    } catch (error) {
      throw this.#failure(error, 'create', { subject });
    }
    // The create answer lists refused members too (Baileys drops their error attribute): the
    // group read again says who is in it. If that read fails, the create answer stands.
    metadata = await sock.groupMetadata(metadata.id).catch((error: unknown) => {
      this.#o.logger.warn({ err: error, jid: metadata.id }, 'reading a new group failed');
      return metadata;
    });
    this.upsert([metadata]);
    const groupId = jidUser(metadata.id);
    if (!groupId) throw this.#failure(new Error(`unreadable group id ${metadata.id}`), 'create', { subject });
    const group = await this.#info(sock, groupId, metadata);
    const added = new Set(group.participants.map((p) => p.number));
    for (const m of members) if (!added.has(m.canonical)) failed.push({ number: m.number, error: 'ERR_GROUP_ADD_REFUSED' });
    failed.sort((a, b) => requested.indexOf(a.number) - requested.indexOf(b.number));
    return { group, failed };
  }

  async updateGroup(sock: WASocketLike, groupId: string, change: GroupChange): Promise<void> {
    const jid = groupJid(groupId);
    try {
      if ('subject' in change) await sock.groupUpdateSubject(jid, change.subject);
      else if ('description' in change) await sock.groupUpdateDescription(jid, change.description);
      else await sock.groupSettingUpdate(jid, change.announce ? 'announcement' : 'not_announcement');
    } catch (error) {
      throw this.#failure(error, 'update', { jid });
    }
    this.#patch(jid, 'subject' in change ? { subject: change.subject } : 'description' in change ? { desc: change.description } : { announce: change.announce });
  }

  #patch(jid: string, fields: Partial<GroupMetadata>): void {
    const cached = this.#groups.get(jid);
    if (!cached || !('metadata' in cached)) return;
    const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    this.#groups.set(jid, { metadata: { ...cached.metadata, ...defined } });
  }

  async #info(sock: WASocketLike, groupId: string, metadata: GroupMetadata): Promise<GroupInfo> {
    return {
      groupId,
      subject: metadata.subject ?? '',
      description: metadata.desc ?? '',
      announce: !!metadata.announce,
      restrict: !!metadata.restrict,
      participants: await this.#participants(sock, metadata),
    };
  }

  /** Members keyed on their phone numbers; LID digits (remembered as such) when none is known. */
  async #participants(sock: WASocketLike, metadata: GroupMetadata): Promise<GroupParticipant[]> {
    const user = sock.user;
    const own = await this.#ownNumber(sock);
    const participants: GroupParticipant[] = [];
    const lidOnly: string[] = [];
    for (const p of metadata.participants) {
      const admin = p.admin === 'admin' || p.admin === 'superadmin';
      const me = [p.id, p.phoneNumber, p.lid].some((jid) => sameAccount(jid, user?.id) || sameAccount(jid, user?.lid) || sameAccount(jid, user?.phoneNumber));
      if (me && own) {
        participants.push({ number: own, admin, me });
        continue;
      }
      const person = await resolvePerson(p.id, p.phoneNumber, pnForLidOf(sock));
      if (!person) continue;
      if (person.viaLid) lidOnly.push(person.number);
      participants.push({ number: person.number, admin, me });
    }
    await this.#o.addressing.rememberLidOnly(lidOnly).catch((error: unknown) => this.#o.logger.warn({ err: error }, 'remembering LID-only members failed'));
    return participants;
  }

  /** The connection's own phone number. */
  async #ownNumber(sock: WASocketLike): Promise<string | undefined> {
    const user = sock.user;
    return user?.id ? (await resolvePerson(user.id, user.phoneNumber, pnForLidOf(sock)))?.number : undefined;
  }

  #failure(error: unknown, action: GroupAction, context: Record<string, unknown>): AppError {
    const code = groupErrorCode(error);
    this.#o.logger.warn({ err: error, code, ...context }, `group ${action} failed`);
    if (action === 'read' && (code === 401 || code === 403 || code === 404)) return new AppError('ERR_GROUP_NOT_FOUND');
    if (action === 'update' && code === 404) return new AppError('ERR_GROUP_NOT_FOUND');
    if (action === 'update' && (code === 401 || code === 403)) return new AppError('ERR_GROUP_NOT_ADMIN');
    if (code === 429) return new AppError('ERR_GROUP_ACTION_FAILED', { message: 'WhatsApp asked to slow down: try this group action again in a few minutes.' });
    return new AppError('ERR_GROUP_ACTION_FAILED');
  }
}
