import { EventEmitter } from 'node:events';
import type { ChannelEvents } from './channel.js';

/** Typed listener registry shared by the drivers. */
export class ChannelEmitter {
  readonly #emitter = new EventEmitter();

  on<K extends keyof ChannelEvents>(event: K, listener: ChannelEvents[K]): void {
    this.#emitter.on(event, listener);
  }

  /** Calls every listener; a promise a listener returns is not waited for (see emitAndWait). */
  emit<K extends keyof ChannelEvents>(event: K, ...args: Parameters<ChannelEvents[K]>): void {
    // Whoever returned it has already reported its failure (the session manager publishes
    // channel.error): it must not also surface as an unhandled rejection.
    void this.emitAndWait(event, ...args).catch(() => undefined);
  }

  /** Calls every listener and waits for the promises they return (see ChannelEvents.message). */
  async emitAndWait<K extends keyof ChannelEvents>(event: K, ...args: Parameters<ChannelEvents[K]>): Promise<void> {
    const listeners = this.#emitter.listeners(event) as ((...a: Parameters<ChannelEvents[K]>) => unknown)[];
    await Promise.all(listeners.map((listener) => listener(...args)));
  }

  clear(): void {
    this.#emitter.removeAllListeners();
  }
}
