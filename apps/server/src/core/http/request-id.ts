/**
 * Each request's id: the caller's `X-Request-Id` when it is well formed (8 to 64 letters, digits,
 * dots, dashes or underscores: what a proxy such as nginx's $request_id or a client's UUID
 * looks like), otherwise a new UUID. It comes back in the answer's `X-Request-Id`, is the
 * `reqId` of the request's own log lines, and is the log context of all the request runs
 * (core/log-context.ts), so a service, an event handler or a job it wakes logs with it too.
 */
import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { boundChild } from '../logger.js';
import { withReqId } from '../log-context.js';

export const REQUEST_ID_HEADER = 'x-request-id';
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,64}$/;

export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
}

/**
 * Fastify's options: the id above, and request loggers that name it once. Fastify writes its
 * "incoming request" and "request completed" lines at info; they are per-request detail, so a
 * request's logger writes its info lines at debug (the product's own request lines use debug,
 * warn or error explicitly).
 */
export const requestIdOptions = {
  requestIdHeader: false as const,
  genReqId: requestIdOf,
  childLoggerFactory: (logger: FastifyBaseLogger, bindings: Record<string, unknown>, options: Parameters<FastifyBaseLogger['child']>[1]) => {
    const child = boundChild(logger, bindings, options);
    child.info = child.debug.bind(child);
    return child;
  },
};

const SCOPE = Symbol('zapdesk.requestScope');
type Scoped = FastifyRequest & { [SCOPE]?: AsyncResource };

/**
 * Registered first: every later hook, the route and what it starts run in the request's log
 * context. The body is read in the socket's context, so the scope is entered again afterwards.
 */
export function installRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    withReqId(request.id, () => {
      const scope = new AsyncResource('zapdesk.request');
      (request as Scoped)[SCOPE] = scope;
      scope.runInAsyncScope(done, undefined);
    });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const scope = (request as Scoped)[SCOPE];
    if (scope) scope.runInAsyncScope(done, undefined);
    else done();
  });
}
