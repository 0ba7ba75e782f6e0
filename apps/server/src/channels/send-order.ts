/**
 * Runs each connection's sends one at a time, in the order asked: a burst of replies reaches
 * the chat in the order the agent wrote them.
 */
export class SendOrder {
  /** The last send asked of each connection, settled or not. */
  readonly #last = new Map<number, Promise<unknown>>();

  run<T>(whatsappId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.#last.get(whatsappId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.#last.set(whatsappId, settled);
    void settled.then(() => {
      if (this.#last.get(whatsappId) === settled) this.#last.delete(whatsappId);
    });
    return next;
  }
}
