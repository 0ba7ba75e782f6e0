/**
 * whaticket's frontend served from another origin (FRONTEND_URL) puts a message's relative media
 * address in `<audio src>`, `<video src>` and its download link as given, so the browser asks the
 * frontend's own host. A call that comes from another origin (the CORS-allowed frontend) gets the
 * messages' media addresses absolute, on the address it reached this server at; our own app, on
 * this origin, keeps the relative form the spec gives.
 */
import type { FastifyRequest } from 'fastify';

type WithMedia = { mediaUrl?: unknown };

function ownOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

/** The origin the caller's page is on, when it is not this server's. */
export function foreignOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  return typeof origin === 'string' && origin !== '' && origin !== 'null' && origin !== ownOrigin(req);
}

function absolute(message: unknown, base: string): unknown {
  if (typeof message !== 'object' || message === null) return message;
  const url = (message as WithMedia).mediaUrl;
  return typeof url === 'string' && url.startsWith('/') ? { ...message, mediaUrl: `${base}${url}` } : message;
}

/** A messages answer (a list, a page `{messages}`, or one message) with absolute media addresses for a foreign origin. */
export function mediaForOrigin(req: FastifyRequest, payload: unknown): unknown {
  if (!foreignOrigin(req)) return payload;
  const base = ownOrigin(req);
  if (Array.isArray(payload)) return payload.map((m) => absolute(m, base));
  if (typeof payload === 'object' && payload !== null && 'messages' in payload && Array.isArray(payload.messages)) {
    return { ...payload, messages: payload.messages.map((m: unknown) => absolute(m, base)) };
  }
  return absolute(payload, base);
}
