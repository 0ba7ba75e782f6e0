/**
 * Leases: work that must run on exactly one node (a connection's session, the telephony
 * sender) is run by the node holding its lease row. A holder renews it every `renewMs`; a node
 * that dies stops renewing, and once the lease has expired another node takes it with the next
 * generation. Fencing: a holder acts only while its own clock says the lease it last renewed is
 * valid with a renewal period to spare, so a node that was paused or cut off from the database
 * has stopped before anyone else may start (clocks in sync, as NTP keeps them).
 *
 * On a single node (no cluster) this node holds every lease, without writing anything.
 */
import type { Db } from '../db/database.js';
import { countHeldLeases, leaseHolder, releaseLease, renewLease, takeLease } from './leases.repository.js';

export type LeaseOptions = {
  /** This node, as written in the rows it holds. */
  nodeId: string;
  /** How long a lease lasts after its last renewal. */
  ttlMs: number;
  /** Whether other nodes may hold leases: false on a single node. */
  clustered: boolean;
};

type Held = { generation: number; validUntil: number };

export class Leases {
  readonly #held = new Map<string, Held>();
  /** On a single node: the names kept so far (see keep). */
  readonly #kept = new Set<string>();
  readonly #renewedAt = new Map<string, number>();

  constructor(
    private readonly db: Db,
    readonly options: LeaseOptions,
  ) {}

  get nodeId(): string {
    return this.options.nodeId;
  }

  /** Renewed this often: a third of the lease. */
  get renewMs(): number {
    return Math.max(100, Math.floor(this.options.ttlMs / 3));
  }

  /** Whether this node holds `name` now and may act on it. */
  holds(name: string): boolean {
    if (!this.options.clustered) return true;
    const held = this.#held.get(name);
    return held !== undefined && Date.now() < held.validUntil;
  }

  generation(name: string): number | undefined {
    return this.#held.get(name)?.generation;
  }

  #validUntil(startedAt: number): number {
    return startedAt + this.options.ttlMs - this.renewMs;
  }

  /** Takes `name` when it is free (or on a single node); true when this node holds it now. */
  async acquire(name: string): Promise<boolean> {
    if (this.holds(name)) return true;
    if (!this.options.clustered) return true;
    const startedAt = Date.now();
    const generation = await takeLease(this.db, name, this.nodeId, new Date(startedAt).toISOString(), new Date(startedAt + this.options.ttlMs).toISOString());
    if (generation === undefined) return false;
    this.#held.set(name, { generation, validUntil: this.#validUntil(startedAt) });
    return true;
  }

  /** Renews `name`; false (and no longer held) when another node took it or the database could not be reached in time. */
  async renew(name: string): Promise<boolean> {
    if (!this.options.clustered) return true;
    const held = this.#held.get(name);
    if (!held) return false;
    const startedAt = Date.now();
    let renewed: boolean;
    try {
      renewed = await renewLease(this.db, name, this.nodeId, held.generation, new Date(startedAt + this.options.ttlMs).toISOString());
    } catch {
      // The database could not be reached: what was valid stays valid, and runs out on its own.
      if (Date.now() >= held.validUntil) this.#held.delete(name);
      return this.holds(name);
    }
    if (!renewed) {
      // Another node took it over: this one has lost it.
      this.#held.delete(name);
      return false;
    }
    if (this.#held.get(name) === held) held.validUntil = this.#validUntil(startedAt);
    return true;
  }

  /**
   * For a job that one node runs at a time, called before each of its rounds: 'new' when this
   * node has just taken it (the job settles what a node that died left half-done), 'held' when
   * it goes on holding it (renewed once a renewal period has passed), false when another node
   * runs it. On a single node: 'new' the first time, then 'held'.
   */
  async keep(name: string): Promise<'new' | 'held' | false> {
    if (!this.options.clustered) {
      if (this.#kept.has(name)) return 'held';
      this.#kept.add(name);
      return 'new';
    }
    if (!this.holds(name)) {
      if (!(await this.acquire(name))) return false;
      this.#renewedAt.set(name, Date.now());
      return 'new';
    }
    if (Date.now() - (this.#renewedAt.get(name) ?? 0) < this.renewMs) return 'held';
    if (!(await this.renew(name))) return false;
    this.#renewedAt.set(name, Date.now());
    return 'held';
  }

  /** Gives `name` up (a clean stop), so another node can take it at once. */
  async release(name: string): Promise<void> {
    const held = this.#held.get(name);
    if (!held) return;
    this.#held.delete(name);
    await releaseLease(this.db, name, this.nodeId, held.generation, new Date().toISOString());
  }

  /** Forgets `name` without writing (it was lost). */
  drop(name: string): void {
    this.#held.delete(name);
  }

  /** The node holding `name` now, this one included. */
  async holder(name: string): Promise<string | undefined> {
    if (this.holds(name)) return this.nodeId;
    return leaseHolder(this.db, name, new Date().toISOString());
  }

  /** How many leases starting with `prefix` some node holds now. */
  async countHeld(prefix: string): Promise<number> {
    if (!this.options.clustered) return 1;
    return countHeldLeases(this.db, prefix, new Date().toISOString());
  }

  /** Every name this node holds. */
  names(): string[] {
    return [...this.#held.keys()];
  }
}
