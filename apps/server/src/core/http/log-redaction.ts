/**
 * What the request log shows of a request. Query values that are secrets are replaced: Meta's
 * webhook check carries the verify token in its address, signed media addresses their
 * signature, and a tool API client may send its token there.
 */
import type { FastifyRequest } from 'fastify';

const SECRET_QUERY = /([?&](?:hub\.verify_token|signature|token|access_token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

export function requestSerializer(request: FastifyRequest): Record<string, unknown> {
  return { method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket.remotePort };
}
