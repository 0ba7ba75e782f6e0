/**
 * The cluster mode's sharing of sessions between nodes: every lease period a node says it is
 * alive, renews the sessions it holds, stops those it lost, and takes sessions nobody holds, up
 * to its share (the sessions divided by the live nodes), so that a dead node's phones are spread
 * over the others.
 */
import type { Leases } from '../core/cluster/leases.js';

/** The lease of a connection's session (see core/cluster/leases.ts). */
export function sessionLease(whatsappId: number): string {
  return `session:${whatsappId}`;
}

/** Each live node holds a lease of its own, under this prefix: how the nodes count each other. */
const NODE_LEASE_PREFIX = 'node:';

/** The connections whose session leases this node holds. */
export function heldSessions(leases: Leases): number[] {
  return leases
    .names()
    .filter((name) => name.startsWith('session:') && leases.holds(name))
    .map((name) => Number(name.slice('session:'.length)));
}

/** What the balancer does to the sessions of this node. */
export type BalancedSessions = {
  /** Every connection's id. */
  ids(): Promise<number[]>;
  /** Whether this node runs the connection's session now. */
  running(whatsappId: number): boolean;
  /** Starts the session (its lease just taken); a failure is reported, not thrown. */
  start(whatsappId: number): Promise<void>;
  /** Stops the session cleanly (its connection was deleted). */
  stop(whatsappId: number): Promise<void>;
  /** Stops the session at once, writing nothing: its lease ran out. */
  fence(whatsappId: number): Promise<void>;
  /** Runs after this node took a session over. */
  tookOver(whatsappId: number): Promise<void>;
  failed(whatsappId: number, error: unknown): void;
};

export class SessionBalancer {
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(
    private readonly leases: Leases,
    private readonly sessions: BalancedSessions,
  ) {}

  /** One round now, then one every lease period until stop. */
  async start(): Promise<void> {
    await this.#balance();
    const tick = () => {
      if (this.#closed) return;
      this.#round = this.#balance()
        .catch((error: unknown) => this.sessions.failed(0, error))
        .finally(() => {
          if (!this.#closed) this.#timer = setTimeout(tick, this.leases.renewMs).unref();
        });
    };
    this.#timer = setTimeout(tick, this.leases.renewMs).unref();
  }

  /** No more rounds; resolves once the one under way ended. */
  async stop(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#round;
  }

  /** Stops the session the moment its lease runs out without a renewal (fencing). */
  watch(whatsappId: number): void {
    const check = () => {
      if (this.#closed || !this.sessions.running(whatsappId)) return;
      if (!this.leases.holds(sessionLease(whatsappId))) return void this.sessions.fence(whatsappId);
      setTimeout(check, 250).unref();
    };
    setTimeout(check, 250).unref();
  }

  async #balance(): Promise<void> {
    await this.leases.keep(NODE_LEASE_PREFIX + this.leases.nodeId);
    const ids = new Set(await this.sessions.ids());
    for (const name of this.leases.names()) {
      if (!name.startsWith('session:')) continue;
      const id = Number(name.slice('session:'.length));
      if (!ids.has(id)) {
        // The connection was deleted: its lease goes with it.
        await this.sessions.stop(id);
        await this.leases.release(name);
      } else if (!(await this.leases.renew(name))) await this.sessions.fence(id);
    }
    const share = Math.ceil(ids.size / Math.max(1, await this.leases.countHeld(NODE_LEASE_PREFIX)));
    for (const id of ids) {
      if (this.#closed || this.leases.holds(sessionLease(id))) continue;
      if (heldSessions(this.leases).length >= share) break;
      if (!(await this.leases.acquire(sessionLease(id)))) continue;
      this.watch(id);
      await this.sessions.start(id);
      await this.sessions.tookOver(id);
    }
  }
}
