/**
 * Group commit of a node's inbound messages: what arrives while a batch is being written waits
 * and goes in the next one, so a flood costs one transaction per batch, not per message. A
 * connection's batches are written one after the other, which keeps every chat's messages in
 * order (a reply after what it quotes); a quiet moment makes a batch of one, with no added wait.
 */
import type { InboundMessage } from './channel.js';

/** At most this many inbound messages of a connection are handed on (and written) together. */
export const INBOUND_BATCH_MAX = 200;

/** An inbound message and who waits for it to be stored. */
type Pending = { message: InboundMessage; stored: () => void; failed: (error: unknown) => void };
/** Told when a message is received; the function it returns hears how its write ended (the metrics). */
export type InboundObserver = () => (outcome: 'stored' | 'failed') => void;

export class InboundBatches {
  /** Inbound messages of each connection waiting for the batch being written to finish. */
  readonly #inbound = new Map<number, { queue: Pending[]; done: Promise<void> }>();
  /** Work waiting for the messages before it to be written (see after). */
  readonly #after = new Set<Promise<void>>();

  constructor(
    /** Writes one batch; undefined while nobody handles inbound messages (they are dropped as stored). */
    private readonly write: (whatsappId: number, batch: InboundMessage[]) => Promise<void> | undefined,
    private readonly onError: (whatsappId: number, error: unknown) => void,
    private readonly observe?: InboundObserver,
  ) {}

  /** Resolves once the message is written (with the batch it joined), rejects when that write failed. */
  receive(whatsappId: number, message: InboundMessage): Promise<void> {
    const ended = this.observe?.();
    const written = new Promise<void>((stored, failed) => {
      const pending: Pending = { message, stored, failed };
      const waiting = this.#inbound.get(whatsappId);
      if (waiting) {
        waiting.queue.push(pending);
        return;
      }
      const queue = [pending];
      let drained: () => void = () => undefined;
      const done = new Promise<void>((resolve) => (drained = resolve));
      this.#inbound.set(whatsappId, { queue, done });
      // Messages delivered in the same turn of the event loop join the first batch.
      setImmediate(() => void this.#drain(whatsappId, queue).finally(drained));
    });
    if (ended) {
      written.then(
        () => ended('stored'),
        () => ended('failed'),
      );
    }
    return written;
  }

  /**
   * Resolves once every inbound message received so far is written (or its write failed), and
   * the work queued behind them (see after) ran: a clean stop waits for it before the database
   * closes.
   */
  async settled(): Promise<void> {
    while (this.#inbound.size > 0 || this.#after.size > 0) {
      await Promise.allSettled([...[...this.#inbound.values()].map((waiting) => waiting.done), ...this.#after]);
    }
  }

  /** Runs `work` once the inbound messages received so far are written. */
  after(whatsappId: number, work: () => Promise<void>): Promise<void> {
    const run = (async () => {
      await this.#inbound.get(whatsappId)?.done;
      await work();
    })();
    this.#after.add(run);
    void run.catch(() => undefined).finally(() => this.#after.delete(run));
    return run;
  }

  async #drain(whatsappId: number, queue: Pending[]): Promise<void> {
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, INBOUND_BATCH_MAX);
        try {
          await this.write(
            whatsappId,
            batch.map((p) => p.message),
          );
          for (const p of batch) p.stored();
        } catch (error) {
          this.onError(whatsappId, error);
          for (const p of batch) p.failed(error);
        }
      }
    } finally {
      this.#inbound.delete(whatsappId);
    }
  }
}
