/**
 * whaticket's frontend served from another origin (FRONTEND_URL) puts a message's relative media
 * address in `<audio src>`, `<video src>` and its download link as given, so the browser would ask
 * the frontend's own host. A call from exactly FRONTEND_URL's origin gets the messages' media
 * addresses absolute, on the address it reached this server at; every other caller (our own app,
 * on this origin) keeps the relative form the spec gives.
 */
import type { FastifyRequest } from 'fastify';

type WithMedia = { mediaUrl?: unknown };

function absolute(message: unknown, base: string): unknown {
  if (typeof message !== 'object' || message === null) return message;
  const url = (message as WithMedia).mediaUrl;
  return typeof url === 'string' && url.startsWith('/') ? { ...message, mediaUrl: `${base}${url}` } : message;
}

/** A messages answer (a list, a page `{messages}`, or one message) with absolute media addresses for the frontend at `frontendOrigin`. */
export function mediaForOrigin(req: FastifyRequest, frontendOrigin: string | undefined, payload: unknown): unknown {
  if (!frontendOrigin || req.headers.origin !== frontendOrigin) return payload;
  const base = `${req.protocol}://${req.host}`;
  if (Array.isArray(payload)) return payload.map((m) => absolute(m, base));
  if (typeof payload === 'object' && payload !== null && 'messages' in payload && Array.isArray(payload.messages)) {
    return { ...payload, messages: payload.messages.map((m: unknown) => absolute(m, base)) };
  }
  return absolute(payload, base);
}
