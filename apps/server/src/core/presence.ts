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

  /** Hears each time a user's screen on this node starts listening to their open tickets (coming online, another tab). */
  onArrival(listener: (userId: number) => void): () => void {
    this.#arrivals.add(listener);
    return () => this.#arrivals.delete(listener);
  }

  /** The gateway says a user's socket here listens to their open tickets now. */
  arrived(userId: number): void {
    for (const listener of this.#arrivals) listener(userId);
  }
}
