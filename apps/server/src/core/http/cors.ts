/**
 * Cross-origin access for exactly one other origin: a whaticket frontend (or any other client
 * of ours) served from `FRONTEND_URL`. That origin gets CORS with credentials (the refresh
 * cookie) on the HTTP API and on the socket; any other origin gets no CORS header at all, so its
 * pages cannot read an answer. Without `FRONTEND_URL` nothing is added: the web app is served
 * from the server's own origin and needs none.
 */
import type { FastifyInstance } from 'fastify';

/** What whaticket's axios client sends: its verbs, and JSON or multipart bodies with a bearer token. */
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const CORS_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'Accept-Language', 'X-Requested-With'] as const;
/** How long a browser may reuse a preflight's answer. */
export const CORS_PREFLIGHT_MAX_AGE_SECONDS = 600;

/** Whether an `Origin` header names the one allowed origin (browsers send it serialized: scheme://host[:port]). */
export type OriginCheck = (origin: string | undefined) => boolean;

export function originCheck(frontendOrigin: string | undefined): OriginCheck {
  return (origin) => frontendOrigin !== undefined && origin === frontendOrigin;
}

/**
 * The socket.io server's `cors` option for the same origin: socket.io answers its own polling
 * requests, before Fastify sees them. Undefined without `FRONTEND_URL` (socket.io then adds no
 * CORS header). Pass it as `new Server(httpServer, { ..., cors: socketCors(config.frontendOrigin) })`.
 */
export function socketCors(
  frontendOrigin: string | undefined,
): { origin: (origin: string | undefined, callback: (error: Error | null, allow?: boolean) => void) => void; credentials: true; methods: string[] } | undefined {
  if (frontendOrigin === undefined) return undefined;
  const allows = originCheck(frontendOrigin);
  return { origin: (origin, callback) => callback(null, allows(origin)), credentials: true, methods: ['GET', 'POST'] };
}

/**
 * Adds the CORS headers to every answer to the allowed origin (errors included, so its client can
 * read the error code), and answers its preflights with 204. Registered before the routes: a
 * preflight has no route of its own, and any other origin's preflight still gets the usual 404.
 */
export function installCors(app: FastifyInstance, frontendOrigin: string | undefined): void {
  if (frontendOrigin === undefined) return;
  const allows = originCheck(frontendOrigin);
  app.addHook('onRequest', async (request, reply) => {
    // Answers differ by Origin: caches must keep them apart.
    reply.header('vary', 'Origin');
    // The frontend shows media (<img>, <audio>, <video>) from here by address, without CORS.
    // 'same-site' is not enough: Chromium blocks it between two ports of one IP address, whaticket's
    // usual set-up (frontend :3000, backend :8080). Nothing here is readable that way without a
    // credential: the API wants a bearer token, which such a load never carries.
    reply.header('cross-origin-resource-policy', 'cross-origin');
    const origin = request.headers.origin;
    if (!allows(origin)) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-credentials', 'true');
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return;
    reply.header('access-control-allow-methods', CORS_METHODS.join(', '));
    reply.header('access-control-allow-headers', CORS_HEADERS.join(', '));
    reply.header('access-control-max-age', String(CORS_PREFLIGHT_MAX_AGE_SECONDS));
    return reply.code(204).send();
  });
}
