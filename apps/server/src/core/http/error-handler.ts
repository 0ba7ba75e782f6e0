import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { VALIDATION_CODES, VALIDATION_MESSAGES, type ValidationCode } from '@zapdesk/shared/schemas';
import type { ErrorBody } from '@zapdesk/shared/errors';
import { AppError } from '../errors.js';

function asValidationCode(message: string): ValidationCode {
  return VALIDATION_CODES.find((c) => c === message) ?? 'INVALID';
}

/** Every failure leaves as `{ error: 'ERR_...', message }`; bad input is a 400, never a 500. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      const body: ErrorBody = {
        error: error.code,
        message: error.message,
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
    if (error.statusCode === 429) {
      return reply.code(429).send({ error: 'ERR_TOO_MANY_REQUESTS', message: 'Too many attempts. Please wait a minute and try again.' } satisfies ErrorBody);
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      // Malformed JSON, wrong content type, oversized upload and the like.
      return reply.code(error.statusCode === 413 ? 413 : 400).send({ error: 'ERR_VALIDATION', message: error.message } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: 'ERR_INTERNAL', message: 'An error occurred!' } satisfies ErrorBody);
  });
}
