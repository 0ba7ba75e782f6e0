/**
 * whaticket's integration API, as whaticket documents and answers it: POST /api/messages/send
 * with `Authorization: Bearer <token>`, JSON `{number, body}` (optionally `whatsappId`), or
 * multipart with `medias` files, `number`, and `body` as every file's caption. It answers 200
 * with an empty body, as whaticket does. A named token needs the 'campaigns' permission (the
 * tool API's sends). Other fields are refused (400 ERR_VALIDATION); whaticket's `quotedMsg` is
 * not taken: an integration has no message of ours to quote.
 * The path is static, so the router prefers it to POST /api/messages/:ticketId (the inbox's send).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LIMITS } from '@zapdesk/shared/domain';
import { hasNoNul, required, ZIdValue } from '@zapdesk/shared/schemas';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { compact } from '../../core/http/audit-hook.js';
import { withUpload, type UploadOptions } from '../../core/http/uploads.js';
import { toolRateLimit } from '../campaigns/tool-auth.js';
import { whaticketApiToken } from './whaticket-api-auth.js';
import { sendFromIntegration } from './whaticket-send.service.js';

/** whaticket takes the number with its dashes and spaces taken out, digits only. */
const ZNumber = z
  .string(required)
  .transform((v) => v.replace(/[\s-]/g, ''))
  .pipe(z.string().regex(/^\d{8,20}$/, 'DIGITS_ONLY'));
/** A connection id as JSON gives it, or as a multipart field (text). */
const ZConnectionId = z.union(
  [
    ZIdValue,
    z
      .string()
      .regex(/^\d{1,10}$/, 'INVALID')
      .transform(Number)
      .pipe(ZIdValue),
  ],
  'INVALID',
);
const ZText = z.string('INVALID').max(30000, 'TOO_LONG').refine(hasNoNul, 'INVALID');

export const ZWhaticketSendSchema = z.strictObject({
  number: ZNumber,
  body: ZText.refine((v) => v.trim().length > 0, 'REQUIRED'),
  whatsappId: ZConnectionId.optional(),
});
export const ZWhaticketSendFieldsSchema = z.strictObject({ number: ZNumber, body: ZText.optional().default(''), whatsappId: ZConnectionId.optional() });

function parsed<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields = Object.fromEntries(result.error.issues.map((i) => [i.path.join('.') || 'body', i.code === 'unrecognized_keys' ? 'UNKNOWN' : i.message]));
  throw new AppError('ERR_VALIDATION', { message: 'Send `number` (digits) and `body`, as whaticket documents.', fields });
}

export const whaticketApiRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; sessions: SessionManager }> = async (app, { ctx, sessions }) => {
  const uploads = (key: string): UploadOptions => ({
    mediaDir: ctx.config.mediaDir,
    maxRequestBytes: ctx.config.uploadMaxRequestBytes,
    budget: { counter: ctx.counters, key: `upload-bytes:${key}`, bytesPerMinute: ctx.config.uploadBytesPerMinute },
    maxFiles: LIMITS.filesPerMessage,
    invalid: (message) => new AppError('ERR_INVALID_UPLOAD', { message, fields: { medias: 'INVALID' } }),
    tooManyFiles: () => new AppError('ERR_TOO_MANY_FILES', { fields: { medias: 'TOO_LONG' } }),
  });

  app.post(
    '/messages/send',
    {
      schema: {
        tags: ['whaticket integration'],
        security: [{ bearer: [] }],
        description:
          'whaticket\'s integration send. `Authorization: Bearer <userApiToken or a named token with \'campaigns\'>`; JSON `{"number":"5511999990000","body":"Olá"}` or multipart `number`, `body` (caption), `medias` files. 200, empty body.',
      },
      preValidation: whaticketApiToken(ctx, 'campaigns'),
      config: {
        rateLimit: toolRateLimit,
        audit: { action: 'apiToken.use', pick: ({ body }) => ({ detail: compact({ route: 'POST /api/messages/send', kind: body === undefined ? 'media' : 'text' }) }) },
      },
    },
    async (req, reply) => {
      if (req.isMultipart()) {
        const token = req.toolActor?.token;
        await withUpload(req, reply, uploads(token ? `token:${token.id}` : 'userApiToken'), async ({ files, fields }) => {
          const input = parsed(ZWhaticketSendFieldsSchema, Object.fromEntries(fields));
          const medias = files.filter((f) => f.fieldname === 'medias').map((f) => ({ path: f.path, size: f.size, mimetype: f.mimetype, filename: f.filename || 'file' }));
          if (medias.length !== files.length) throw new AppError('ERR_VALIDATION', { message: 'Files go in `medias`.', fields: { medias: 'INVALID' } });
          if (medias.length === 0 && !input.body.trim()) throw new AppError('ERR_VALIDATION', { message: 'Send `body` or files in `medias`.', fields: { body: 'REQUIRED' } });
          await sendFromIntegration(ctx, sessions, { ...input, medias });
        });
        return reply.code(200).send();
      }
      await sendFromIntegration(ctx, sessions, parsed(ZWhaticketSendSchema, req.body));
      return reply.code(200).send();
    },
  );
};
