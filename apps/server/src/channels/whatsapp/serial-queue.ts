/** Tasks run one after the other in the order given; a failing task is reported, the next still runs. */
export class SerialQueue {
  readonly #onError: (error: unknown) => void;
  #tail: Promise<void> = Promise.resolve();

  constructor(onError: (error: unknown) => void) {
    this.#onError = onError;
  }

  push(task: () => Promise<void>): void {
    this.#tail = this.#tail.then(task).catch(this.#onError);
  }

  get tail(): Promise<void> {
    return this.#tail;
  }
}

/** Resolves once every queue has run every task it was given, including tasks added meanwhile. */
export async function allIdle(queues: SerialQueue[]): Promise<void> {
  let tails: Promise<void>[];
  do {
    tails = queues.map((q) => q.tail);
    await Promise.all(tails);
  } while (queues.some((q, i) => q.tail !== tails[i]));
}
