/**
 * The server's one logger: pino, one JSON object per line on stdout, at LOG_LEVEL. Fastify logs
 * through it (each request's lines carry `reqId`), and so do jobs, services and channels through
 * `ctx.log` or a child of it: a line written while a request, a job round or a call from another
 * node is under way carries its id (core/log-context.ts). Whatever the level, the secrets of
 * core/http/log-redaction.ts are blanked.
 */
import { pino, type ChildLoggerOptions, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';
import { LOG_REDACT_CENSOR, LOG_REDACT_PATHS, requestSerializer } from './http/log-redaction.js';
import { currentReqId } from './log-context.js';

export type { Logger } from 'pino';

/** Marks a logger whose bindings already hold the request's id (Fastify's request loggers). */
const BOUND = Symbol('zapdesk.reqIdBound');

export function createLogger(level: Config['logLevel'], destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      serializers: { req: requestSerializer },
      redact: { paths: LOG_REDACT_PATHS, censor: LOG_REDACT_CENSOR },
      mixin: (_object, _level, logger) => {
        if ((logger as unknown as Record<symbol, unknown>)[BOUND]) return {};
        const reqId = currentReqId();
        return reqId ? { reqId } : {};
      },
    },
    destination,
  );
}

/** A child that already names its request in its bindings (the context's id is not added twice). */
export function boundChild<L extends { child: (bindings: Record<string, unknown>, options?: ChildLoggerOptions) => L }>(logger: L, bindings: Record<string, unknown>, options?: ChildLoggerOptions): L {
  const child = logger.child(bindings, options);
  (child as unknown as Record<symbol, unknown>)[BOUND] = true;
  return child;
}
