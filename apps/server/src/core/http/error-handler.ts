import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { VALIDATION_CODES, VALIDATION_MESSAGES, type ValidationCode } from '@zapdesk/shared/schemas';
import { CODE_ONLY_ERRORS, ERROR_MESSAGES, ERROR_STATUS, type ErrorBody, type ErrorCode } from '@zapdesk/shared/errors';
import { AppError } from '../errors.js';

function asValidationCode(message: string): ValidationCode {
  return VALIDATION_CODES.find((c) => c === message) ?? 'INVALID';
}

/** Fastify's and its plugins' own errors, each with the code it leaves as. */
const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_BAD_URL: 'ERR_BAD_URL',
  FST_ERR_INVALID_URL: 'ERR_BAD_URL',
  FST_ERR_MAX_PARAM_LENGTH: 'ERR_URL_TOO_LONG',
  FST_ERR_CTP_BODY_TOO_LARGE: 'ERR_PAYLOAD_TOO_LARGE',
  FST_REQ_FILE_TOO_LARGE: 'ERR_PAYLOAD_TOO_LARGE',
  FST_PARTS_LIMIT: 'ERR_PAYLOAD_TOO_LARGE',
  FST_FILES_LIMIT: 'ERR_PAYLOAD_TOO_LARGE',
  FST_FIELDS_LIMIT: 'ERR_PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'ERR_UNSUPPORTED_MEDIA_TYPE',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'ERR_UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'ERR_INVALID_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'ERR_INVALID_JSON',
  FST_PROTO_VIOLATION: 'ERR_INVALID_JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'ERR_BAD_REQUEST',
  FST_ERR_NOT_FOUND: 'ERR_NOT_FOUND',
  FST_ERR_VALIDATION: 'ERR_VALIDATION',
};

/** The code a framework error leaves as, or undefined for a fault of ours (a 500). */
function frameworkCode(error: FastifyError): ErrorCode | undefined {
  const known = error.code ? FRAMEWORK_CODES[error.code] : undefined;
  if (known) return known;
  const status = error.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  // JSON.parse's own error (broken JSON, a forbidden __proto__ key), marked 400 by Fastify.
  if (error instanceof SyntaxError) return 'ERR_INVALID_JSON';
  if (status === 413) return 'ERR_PAYLOAD_TOO_LARGE';
  if (status === 415) return 'ERR_UNSUPPORTED_MEDIA_TYPE';
  if (status === 429) return 'ERR_TOO_MANY_REQUESTS';
  return 'ERR_BAD_REQUEST';
}

/** `{ error, message }`, or `{ error }` alone for the codes whaticket's frontend translates (CODE_ONLY_ERRORS). */
export function errorBody(code: ErrorCode, message: string = ERROR_MESSAGES[code]): ErrorBody {
  return CODE_ONLY_ERRORS.has(code) ? { error: code } : { error: code, message };
}

function answer(reply: FastifyReply, code: ErrorCode): FastifyReply {
  return reply.code(ERROR_STATUS[code]).send(errorBody(code));
}

/**
 * Errors Fastify meets before a route is chosen (a bad escape in the path, a parameter over the
 * length limit): no hook has run, so the security headers are added here.
 */
export function frameworkErrors(headers: (request: FastifyRequest, reply: FastifyReply) => void) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    headers(request, reply);
    void answer(reply, frameworkCode(error) ?? 'ERR_BAD_REQUEST');
  };
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a garbage request line, an
 * unknown method, headers or an address over 16 KB, a slow client): answered on the socket in
 * our shape, then the connection is closed.
 */
export function clientErrorHandler(headers: Record<string, string>) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const code: ErrorCode = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'ERR_REQUEST_TIMEOUT' : error.code === 'HPE_HEADER_OVERFLOW' ? 'ERR_HEADERS_TOO_LARGE' : 'ERR_BAD_REQUEST';
    const body = JSON.stringify(errorBody(code));
    const lines = [
      `HTTP/1.1 ${ERROR_STATUS[code]} ${code}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    if (socket.writable) socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
    socket.destroy();
  };
}

/**
 * Refusals an operator should see (warn): a provider's call with a wrong signature, a client
 * held back for too many attempts. Every other refusal is the caller's business (debug).
 */
const WARN_REFUSALS: ReadonlySet<ErrorCode> = new Set(['ERR_WEBHOOK_SIGNATURE', 'ERR_TOO_MANY_REQUESTS']);

/** Every failure leaves as `{ error: 'ERR_...', message }` (see errorBody); bad input is a 4xx, never a 500. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (WARN_REFUSALS.has(error.code)) request.log.warn({ code: error.code }, 'request refused');
      else request.log.debug({ code: error.code }, 'request refused');
      const body: ErrorBody = {
        ...errorBody(error.code, error.message),
        ...(error.fields ? { fields: error.fields } : {}),
        ...(error.messageId === undefined ? {} : { messageId: error.messageId }),
      };
      return reply.code(error.statusCode).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
        fields[path] ??= asValidationCode(issue.message ?? 'INVALID');
      }
      const message = Object.entries(fields)
        .map(([path, code]) => `${path}: ${VALIDATION_MESSAGES[asValidationCode(code)]}`)
        .join('; ');
      return reply.code(400).send({ error: 'ERR_VALIDATION', message, fields } satisfies ErrorBody);
    }
    const code = frameworkCode(error);
    if (code) return answer(reply, code);
    request.log.error({ err: error }, 'unhandled error');
    return answer(reply, 'ERR_INTERNAL');
  });
}
