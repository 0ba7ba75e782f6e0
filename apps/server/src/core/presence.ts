/**
 * Who has the app open now: the users with a realtime socket connected, on this node or any
 * other. The realtime gateway answers it once it is up (app.ts); core/ and the features never
 * reach for sockets themselves.
 */
export class Presence {
  #source: (() => Promise<number[]>) | undefined;
  readonly #arrivals = new Set<(userId: number) => void>();

  /** The gateway says how to read the connected users. */
  answerWith(source: () => Promise<number[]>): void {
    this.#source = source;
  }

  /** Each online user's id once, in order; nobody before the gateway is up. */
  async onlineUserIds(): Promise<number[]> {
    const ids = this.#source ? await this.#source() : [];
    return [...new Set(ids)].sort((a, b) => a - b);
  }

  /** Hears each socket a user opens on this node (a user coming online, or another tab of theirs). */
  onArrival(listener: (userId: number) => void): () => void {
    this.#arrivals.add(listener);
    return () => this.#arrivals.delete(listener);
  }

  /** The gateway says a user's socket connected here. */
  arrived(userId: number): void {
    for (const listener of this.#arrivals) listener(userId);
  }
}
