/**
 * What the session manager needs from the connections feature, registered at start (as the
 * inbound handler is): channels/ never reaches into a feature's tables.
 */
import type { ConnectionStatus } from '@zapdesk/shared/domain';

/** A connection's channel session state in the database: key material by type and id, values as JSON text. */
export interface ChannelAuthStore {
  get(type: string, ids: string[]): Promise<Map<string, string>>;
  getOne(type: string, id: string): Promise<string | undefined>;
  /** Writes every entry at once; a null value deletes the key. */
  set(entries: { type: string; id: string; value: string | null }[]): Promise<void>;
  clear(): Promise<void>;
}

export type ConnectionSessionState = { status: ConnectionStatus; qrcode: string; retries: number; updatedAt: string };

export interface ConnectionStore {
  /** Every connection, for restoring their sessions at start. */
  ids(): Promise<number[]>;
  /** The channel of a connection (whatsapp, simulator, …), or undefined when there is none. */
  channelOf(id: number): Promise<string | undefined>;
  /** Stores a session change and answers the connection's state as now stored. */
  saveState(id: number, state: { status: ConnectionStatus; qrcode?: string; retries: number }, now: string): Promise<ConnectionSessionState | undefined>;
  /** When the running session opened, or null after a clean stop (see SessionManager.start). */
  sessionOpenSince(id: number): Promise<string | null>;
  setSessionOpenSince(id: number, since: string | null): Promise<void>;
  authStore(id: number): ChannelAuthStore;
}
