/**
 * The status of each session of this node: stored in the order its driver emitted them,
 * published to the screens, and counted for the metrics.
 */
import { CONNECTION_STATUSES, type ConnectionStatus } from '@zapdesk/shared/domain';
import type { AppContext } from '../core/context.js';
import { nowIso } from '../core/time.js';
import type { ConnectionStore } from './connection-store.js';

export type SessionState = { status: ConnectionStatus; qrcode?: string };

export class SessionStatuses {
  /** Status writes of each connection, chained so they land in the order the driver emitted them. */
  readonly #writes = new Map<number, Promise<void>>();
  /** The last status each session of this node emitted (the metrics' sessions by status). */
  readonly #last = new Map<number, ConnectionStatus>();
  /** Reconnection attempts since the session was last connected. */
  readonly #retries = new Map<number, number>();

  constructor(
    private readonly ctx: AppContext,
    private readonly store: ConnectionStore,
  ) {}

  /** The driver connected: the count of attempts starts again. */
  connected(whatsappId: number): void {
    this.#retries.set(whatsappId, 0);
  }

  /** The driver lost its connection and tries again (`retries` when the driver counts them itself). */
  retrying(whatsappId: number, retries?: number): void {
    this.#retries.set(whatsappId, retries ?? (this.#retries.get(whatsappId) ?? 0) + 1);
  }

  /** Stores `state` after the states emitted before it. */
  enqueue(whatsappId: number, state: SessionState): void {
    this.#last.set(whatsappId, state.status);
    const previous = this.#writes.get(whatsappId) ?? Promise.resolve();
    const next = previous.then(() => this.save(whatsappId, state)).catch((error: unknown) => this.ctx.events.publish('channel.error', { whatsappId, error }));
    this.#writes.set(whatsappId, next);
  }

  /** Resolves once every status emitted so far is stored. */
  async settled(whatsappId: number): Promise<void> {
    await this.#writes.get(whatsappId);
  }

  /** Resolves once every connection's statuses emitted so far are stored. */
  async allSettled(): Promise<void> {
    await Promise.all(this.#writes.values());
  }

  /** Stores `state` now and tells the screens. */
  async save(whatsappId: number, state: SessionState): Promise<void> {
    const retries = this.#retries.get(whatsappId) ?? 0;
    const current = await this.store.saveState(whatsappId, { ...state, retries }, nowIso());
    if (!current) return;
    // A connection's lifecycle (connected, disconnected…) at info; each new QR code only at debug, never its content.
    this.ctx.log[current.status === 'qrcode' ? 'debug' : 'info']({ whatsappId, status: current.status, retries: current.retries }, 'connection status');
    this.ctx.events.publish('whatsapp.session', { id: whatsappId, status: current.status, qrcode: current.qrcode, retries: current.retries, updatedAt: current.updatedAt });
  }

  /** The given sessions by their last status (a session that said nothing yet is OPENING). */
  countByStatus(ids: Iterable<number>): Record<string, number> {
    const counts: Record<string, number> = Object.fromEntries(CONNECTION_STATUSES.map((status) => [status, 0]));
    for (const id of ids) {
      const status = this.#last.get(id) ?? 'OPENING';
      counts[status] = (counts[status] ?? 0) + 1;
    }
    return counts;
  }
}
