/**
 * Baileys' authentication state kept in the database (ChannelAuthStore, table channelAuth), so
 * any node can take a session over: the credentials as one JSON row, every signal key as a row
 * per (type, id). The shape follows Baileys' useMultiFileAuthState, with rows for files.
 */
import { createHash } from 'node:crypto';
import {
  BufferJSON,
  initAuthCreds,
  makeCacheableSignalKeyStore,
  proto,
  type AuthenticationCreds,
  type AuthenticationState,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
  type SocketConfig,
} from '@whiskeysockets/baileys';
import type { ChannelAuthStore } from '../connection-store.js';

export const CREDS_TYPE = 'creds';
export const CREDS_ID = 'creds';

/** channelAuth.keyId is varchar(200); longer ids (none seen so far) are stored by their hash. */
const MAX_KEY_ID_LENGTH = 200;

export type WhatsappAuthState = {
  state: AuthenticationState;
  /** Writes the whole credentials document (Baileys has already merged `creds.update` into it). */
  saveCreds: () => Promise<void>;
  /** Forgets the credentials and every key of the connection. */
  clear: () => Promise<void>;
};

export function storedKeyId(id: string): string {
  return id.length <= MAX_KEY_ID_LENGTH ? id : `sha256:${createHash('sha256').update(id).digest('hex')}`;
}

function encode(value: unknown): string {
  return JSON.stringify(value, BufferJSON.replacer);
}

function decode(json: string): unknown {
  return JSON.parse(json, BufferJSON.reviver);
}

/**
 * The raw store, without the cache. Once `isActive` turns false (the session was forgotten),
 * late writes from a closing socket are dropped instead of bringing keys back.
 */
export function makeDbSignalKeyStore(store: ChannelAuthStore, isActive: () => boolean = () => true): SignalKeyStore {
  return {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]): Promise<{ [id: string]: SignalDataTypeMap[T] }> {
      const rows = await store.get(type, ids.map(storedKeyId));
      const found: { [id: string]: SignalDataTypeMap[T] } = {};
      for (const id of ids) {
        const json = rows.get(storedKeyId(id));
        if (json === undefined) continue;
        const value = decode(json);
        // The JSON was written from a value of this very type by set(); only protobuf classes
        // need rebuilding, as Baileys' own file store does.
        found[id] = (type === 'app-state-sync-key' ? proto.Message.AppStateSyncKeyData.fromObject(value as Record<string, unknown>) : value) as SignalDataTypeMap[T];
      }
      return found;
    },
    async set(data: SignalDataSet): Promise<void> {
      if (!isActive()) return;
      const entries: { type: string; id: string; value: string | null }[] = [];
      for (const [type, values] of Object.entries(data)) {
        for (const [id, value] of Object.entries(values ?? {})) {
          entries.push({ type, id: storedKeyId(id), value: value === null || value === undefined ? null : encode(value) });
        }
      }
      await store.set(entries);
    },
    async clear(): Promise<void> {
      await store.clear();
    },
  };
}

/** Loads the credentials (new ones on first use) and wraps the keys in Baileys' write-through cache. */
export async function loadWhatsappAuthState(store: ChannelAuthStore, logger?: SocketConfig['logger']): Promise<WhatsappAuthState> {
  const json = await store.getOne(CREDS_TYPE, CREDS_ID);
  // Written by saveCreds() from an AuthenticationCreds; the reviver restores its Buffers.
  const creds = json === undefined ? initAuthCreds() : (decode(json) as AuthenticationCreds);
  let active = true;
  const keys = makeCacheableSignalKeyStore(
    makeDbSignalKeyStore(store, () => active),
    logger,
  );
  // Saves run one after the other, each writing the creds as they are when it runs, so an
  // older document never lands after a newer one.
  let saving: Promise<void> = Promise.resolve();
  return {
    state: { creds, keys },
    saveCreds: () => {
      const next = saving.then(async () => {
        if (active) await store.set([{ type: CREDS_TYPE, id: CREDS_ID, value: encode(creds) }]);
      });
      saving = next.catch(() => undefined);
      return next;
    },
    clear: async () => {
      active = false;
      await saving;
      await keys.clear?.();
    },
  };
}
