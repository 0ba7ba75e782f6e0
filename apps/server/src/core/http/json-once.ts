import type { FastifyReply } from 'fastify';
import type { z } from 'zod';

const encoded = new WeakMap<object, string>();

/**
 * Sends a memoised answer as JSON checked against its response schema, encoding it once: a
 * memoised page is frozen and shared by every request until the next write, so checking and
 * stringifying it again for each of them (a fifth of a cached list's cost) buys nothing. Answers
 * that are not frozen are encoded on every call, as the route's serializer would.
 */
export function sendJsonOnce<S extends z.ZodType>(reply: FastifyReply, schema: S, value: z.output<S> & object): FastifyReply {
  let json = encoded.get(value);
  if (json === undefined) {
    json = JSON.stringify(schema.encode(value));
    if (Object.isFrozen(value)) encoded.set(value, json);
  }
  return reply.type('application/json; charset=utf-8').send(json);
}
