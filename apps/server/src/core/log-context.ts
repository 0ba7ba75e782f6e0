/**
 * Which request (or job round, or call from another node) the code running now works for. Every
 * log line written inside carries its id as `reqId`, however far from the route it is written:
 * a service, a domain-event handler (they run in the publisher's context), a job woken by the
 * request. A job round started by its own timer gets its own id, `job:<name>:<round>`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export type LogContext = { reqId: string };

const storage = new AsyncLocalStorage<LogContext>();

/** The id of the request, job round or remote call under way; undefined outside any. */
export function currentReqId(): string | undefined {
  return storage.getStore()?.reqId;
}

/** Runs `work` with `reqId` as the id of everything it logs (and of what it starts). */
export function withReqId<T>(reqId: string, work: () => T): T {
  return storage.run({ reqId }, work);
}

const rounds = new Map<string, number>();

/** A job's round started by its own timer: `job:<name>:<round>`, the rounds of each job counted from 1. */
export function jobRound<T>(name: string, work: () => T): T {
  const round = (rounds.get(name) ?? 0) + 1;
  rounds.set(name, round);
  return storage.run({ reqId: `job:${name}:${round}` }, work);
}

/** A job's pass that a request (or a remote call, or an event) may have woken: it keeps that id; otherwise a round of its own. */
export function inJobRound<T>(name: string, work: () => T): T {
  return storage.getStore() ? work() : jobRound(name, work);
}
