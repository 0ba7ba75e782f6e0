/**
 * Calls between the nodes of a cluster, over Redis publish/subscribe: a node asks the node that
 * runs a connection's session to act on it (send, check a number, create a group…) and gets
 * its answer, or its error with the same code, as if the session ran here. Each node listens on
 * its own channel; answers come back on the caller's.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { isErrorCode } from '@zapdesk/shared/errors';
import { AppError } from '../errors.js';
import { currentReqId, withReqId } from '../log-context.js';
import type { Logger } from '../logger.js';

/** `reqId`: the caller's request (or job round), under which the called node logs what it does. */
type Request = { t: 'call'; id: string; from: string; method: string; args: unknown; reqId?: string | undefined };
type Answer = { t: 'answer'; id: string; ok: true; value: unknown } | { t: 'answer'; id: string; ok: false; code: string; message: string };

export type RpcHandler = (args: unknown) => Promise<unknown>;

const GONE = 'The node running this connection is gone; another takes it over shortly.';

/** How long a caller waits for an answer before it gives up (the other node may be gone). */
export const RPC_TIMEOUT_MS = 60_000;

/**
 * Values as JSON: Buffers as base64, Dates as ISO text, functions left out. A value with a
 * `load()` (a message's media, read lazily) is read first, so the other node gets the bytes.
 */
export async function toWire(value: unknown): Promise<unknown> {
  if (Buffer.isBuffer(value)) return { $b64: value.toString('base64') };
  if (value instanceof Date) return { $date: value.toISOString() };
  if (Array.isArray(value)) return Promise.all(value.map(toWire));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    const record = value as Record<string, unknown>;
    if (typeof record.load === 'function') out.$load = await toWire(await (record.load as () => Promise<unknown>)());
    for (const [key, item] of Object.entries(record)) {
      if (typeof item !== 'function') out[key] = await toWire(item);
    }
    return out;
  }
  return value;
}

export function fromWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromWire);
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.$b64 === 'string') return Buffer.from(record.$b64, 'base64');
    if (typeof record.$date === 'string') return new Date(record.$date);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(record)) {
      if (key !== '$load') out[key] = fromWire(item);
    }
    if ('$load' in record) {
      const loaded = fromWire(record.$load);
      out.load = async () => loaded;
    }
    return out;
  }
  return value;
}

export class NodeRpc {
  readonly #handlers = new Map<string, RpcHandler>();
  readonly #waiting = new Map<string, { node: string; resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  #watch: NodeJS.Timeout | undefined;

  constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly prefix: string,
    readonly nodeId: string,
    private readonly log?: Logger,
  ) {}

  #channel(node: string): string {
    return `${this.prefix}:node:${node}`;
  }

  async start(): Promise<void> {
    this.sub.on('message', (channel: string, text: string) => {
      if (channel === this.#channel(this.nodeId)) void this.#receive(text);
    });
    await this.sub.subscribe(this.#channel(this.nodeId));
  }

  handle(method: string, handler: RpcHandler): void {
    this.#handlers.set(method, handler);
  }

  /** Asks `node` to run `method`; its error comes back with the same code. */
  async call(node: string, method: string, args: unknown, timeoutMs = RPC_TIMEOUT_MS): Promise<unknown> {
    const id = randomUUID();
    const request: Request = { t: 'call', id, from: this.nodeId, method, args: await toWire(args), reqId: currentReqId() };
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(new AppError('ERR_WAPP_NOT_INITIALIZED', { message: 'The node running this connection did not answer in time.' }));
      }, timeoutMs);
      timer.unref();
      this.#waiting.set(id, { node, resolve, reject, timer });
    });
    // The answer may come back before publish() resolves: it is awaited below, but marked
    // handled now, or an error answer would count as an unhandled rejection meanwhile.
    answer.catch(() => undefined);
    const listeners = await this.pub.publish(this.#channel(node), JSON.stringify(request));
    if (listeners === 0) {
      const waiting = this.#waiting.get(id);
      this.#waiting.delete(id);
      if (waiting) clearTimeout(waiting.timer);
      throw new AppError('ERR_WAPP_NOT_INITIALIZED', { message: GONE });
    }
    this.#watchNodes();
    return answer;
  }

  /**
   * While calls wait, checks every second that the nodes they wait for still listen: a node
   * that died after taking a call never answers, and its callers hear so at once instead of
   * after the timeout.
   */
  #watchNodes(): void {
    if (this.#watch) return;
    this.#watch = setInterval(() => {
      const nodes = [...new Set([...this.#waiting.values()].map((w) => w.node))];
      if (nodes.length === 0) {
        clearInterval(this.#watch);
        this.#watch = undefined;
        return;
      }
      void this.pub
        .pubsub('NUMSUB', ...nodes.map((n) => this.#channel(n)))
        .then((reply) => {
          for (let i = 0; i < nodes.length; i += 1) {
            if (Number(reply[i * 2 + 1]) > 0) continue;
            this.log?.warn({ node: nodes[i] }, 'a node stopped listening; its calls are answered as failed');
            for (const [id, waiting] of this.#waiting) {
              if (waiting.node !== nodes[i]) continue;
              this.#waiting.delete(id);
              clearTimeout(waiting.timer);
              waiting.reject(new AppError('ERR_WAPP_NOT_INITIALIZED', { message: GONE }));
            }
          }
        })
        .catch(() => undefined);
    }, 1_000);
    this.#watch.unref();
  }

  async #receive(text: string): Promise<void> {
    let message: Request | Answer;
    try {
      message = JSON.parse(text) as Request | Answer;
    } catch {
      return;
    }
    if (message.t === 'answer') {
      const waiting = this.#waiting.get(message.id);
      if (!waiting) return;
      this.#waiting.delete(message.id);
      clearTimeout(waiting.timer);
      if (message.ok) waiting.resolve(fromWire(message.value));
      else waiting.reject(isErrorCode(message.code) ? new AppError(message.code, { message: message.message }) : new Error(message.message));
      return;
    }
    const call = message;
    await withReqId(wireReqId(call.reqId) ?? `rpc:${call.id}`, async () => {
      let answer: Answer;
      try {
        const handler = this.#handlers.get(call.method);
        if (!handler) throw new Error(`No handler for ${call.method} on this node.`);
        this.log?.debug({ method: call.method, from: call.from }, 'call from another node');
        answer = { t: 'answer', id: call.id, ok: true, value: await toWire(await handler(fromWire(call.args))) };
      } catch (error) {
        // A refusal (an AppError) is the caller's to report; anything else went wrong here.
        if (error instanceof AppError) this.log?.debug({ method: call.method, from: call.from, code: error.code }, 'call from another node refused');
        else this.log?.error({ err: error, method: call.method, from: call.from }, 'call from another node failed');
        answer = { t: 'answer', id: call.id, ok: false, code: error instanceof AppError ? error.code : 'ERR_INTERNAL', message: error instanceof Error ? error.message : String(error) };
      }
      await this.pub.publish(this.#channel(call.from), JSON.stringify(answer));
    });
  }

  close(): void {
    clearInterval(this.#watch);
    for (const waiting of this.#waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(new AppError('ERR_WAPP_NOT_INITIALIZED', { message: 'This node is shutting down.' }));
    }
    this.#waiting.clear();
  }
}

/** An id that came over the wire: the shape of ours (a request id, `job:…`, `rpc:…`), else none. */
export function wireReqId(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9._:-]{1,100}$/.test(value) ? value : undefined;
}
