/** Group metadata, read once per group (never once per message) and kept small. */
import type { BaileysEventMap, GroupMetadata } from '@whiskeysockets/baileys';
import { BoundedMap } from './bounded-map.js';
import type { BaileysLogger } from './whatsapp-logger.js';
import type { WASocketLike } from './whatsapp-socket.js';

const GROUP_CACHE_SIZE = 1_000;
/** A group whose metadata could not be read is asked again after this long, not on every message. */
const GROUP_RETRY_MS = 10 * 60_000;

export class WhatsappGroups {
  readonly #logger: BaileysLogger;
  readonly #groups = new BoundedMap<string, { metadata: GroupMetadata } | { failedAt: number }>(GROUP_CACHE_SIZE);
  readonly #fetches = new Map<string, Promise<void>>();

  constructor(logger: BaileysLogger) {
    this.#logger = logger;
  }

  /** What Baileys asks for through `cachedGroupMetadata`. */
  cached(jid: string): GroupMetadata | undefined {
    const cached = this.#groups.get(jid);
    return cached && 'metadata' in cached ? cached.metadata : undefined;
  }

  upsert(groups: GroupMetadata[]): void {
    for (const g of groups) this.#groups.set(g.id, { metadata: g });
  }

  update(updates: BaileysEventMap['groups.update']): void {
    for (const update of updates) {
      const cached = update.id ? this.#groups.get(update.id) : undefined;
      if (update.id && cached && 'metadata' in cached && update.subject) this.#groups.set(update.id, { metadata: { ...cached.metadata, subject: update.subject } });
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
              this.#logger.warn({ err: error, jid }, 'group metadata unavailable');
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
}
