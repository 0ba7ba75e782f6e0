import fs from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LIMITS, MAX_ID } from '@zapdesk/shared/domain';
import { ZMessageListSchema, ZMessagePageQuerySchema, ZMessageSchema, ZSendMediaFieldsSchema, ZSendTextSchema } from '@zapdesk/shared/messaging';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { authenticate, currentUser } from '../../core/http/auth-hooks.js';
import { uploadOptions, withUpload } from '../../core/http/uploads.js';
import { mediaForOrigin } from './cross-origin-media.js';
import * as service from './messages.service.js';

/** The route's own errors of a multipart message. */
const MESSAGE_UPLOAD = {
  maxFiles: LIMITS.filesPerMessage,
  invalid: (message: string) => new AppError('ERR_INVALID_UPLOAD', { message, fields: { medias: 'INVALID' } }),
  tooManyFiles: () => new AppError('ERR_TOO_MANY_FILES', { message: `At most ${LIMITS.filesPerMessage} files per message.`, fields: { medias: 'TOO_LONG' } }),
};

/**
 * The file's name for the browser. A name beyond plain ASCII (accents, any script) also goes
 * exactly in RFC 6266's filename*; quotes and line breaks never reach the header.
 */
function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const plain = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  if (plain === name) return `${kind}; filename="${name}"`;
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${plain}"; filename*=UTF-8''${exact}`;
}

const ZTicketParams = z.object({ ticketId: z.coerce.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID') });

export const messagesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; sessions: SessionManager }> = async (app, { ctx, sessions }) => {
  const tags = ['messages'];
  const onRequest = authenticate(ctx);
  // These routes' answers only (the plugin is encapsulated): media addresses for whaticket's frontend at FRONTEND_URL.
  app.addHook('preSerialization', async (req, _reply, payload) => mediaForOrigin(req, ctx.config.frontendOrigin, payload));

  app.get('/messages/:ticketId', { schema: { tags, params: ZTicketParams, querystring: ZMessagePageQuerySchema, response: { 200: ZMessageListSchema } }, onRequest }, (req) =>
    service.listMessages(ctx, sessions, currentUser(req), req.params.ticketId, req.query.pageNumber, req.query.notes === 'true'),
  );

  // JSON {body, quotedMsg, mediaUrl} (a file by address, see media-url.ts) or multipart: `medias` files plus `body`.
  app.post('/messages/:ticketId', { schema: { tags, params: ZTicketParams, response: { 201: z.array(ZMessageSchema) } }, onRequest }, async (req, reply) => {
    const actor = currentUser(req);
    if (req.isMultipart()) {
      // The files are streamed to temporary files, removed once this answers (sent ones are moved into the store).
      const sent = await withUpload(req, reply, uploadOptions(ctx, actor.id, MESSAGE_UPLOAD), async ({ files, fields }) => {
        const medias = files.map((f) => ({ path: f.path, size: f.size, mimetype: f.mimetype, filename: f.filename || 'file' }));
        if (medias.length === 0) throw new AppError('ERR_VALIDATION', { message: 'Send at least one file in `medias`.', fields: { medias: 'REQUIRED' } });
        // whaticket's chat sends `fromMe=true` and each file's name as a `body`: its server sends files
        // without a caption, and so does this one for that shape.
        const fromMe = fields.get('fromMe');
        if (fromMe !== undefined && fromMe !== 'true') throw new AppError('ERR_VALIDATION', { message: 'fromMe can only be true.', fields: { fromMe: 'INVALID' } });
        const caption = fromMe === undefined ? (fields.get('body') ?? '') : '';
        const parsed = ZSendMediaFieldsSchema.safeParse({ body: caption, quotedMsgId: fields.get('quotedMsgId') });
        if (!parsed.success) {
          const issues = Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.') || 'body', i.message]));
          throw new AppError('ERR_VALIDATION', { message: 'The caption is too long or invalid.', fields: issues });
        }
        return service.sendMessage(ctx, sessions, actor, req.params.ticketId, { body: parsed.data.body, quotedMsgId: parsed.data.quotedMsgId, medias });
      });
      return reply.code(201).send(sent);
    }
    const parsed = ZSendTextSchema.safeParse(req.body);
    if (!parsed.success) {
      const fields = Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.') || 'body', i.message]));
      throw new AppError('ERR_VALIDATION', { message: 'The message is empty or invalid.', fields });
    }
    const mediaUrl = parsed.data.mediaUrl?.trim() || undefined;
    return reply.code(201).send(await service.sendMessage(ctx, sessions, actor, req.params.ticketId, { body: parsed.data.body, quotedMsgId: parsed.data.quotedMsg?.id ?? null, mediaUrl }));
  });

  // A reply whose send failed, tried again.
  app.post('/messages/:id/retry', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZMessageSchema } }, onRequest }, (req) =>
    service.retrySend(ctx, sessions, currentUser(req), req.params.id),
  );

  app.delete('/messages/:id', { schema: { tags, params: ZIdParamsSchema, response: { 204: z.null() } }, onRequest }, async (req, reply) => {
    await service.deleteMessage(ctx, sessions, currentUser(req), req.params.id);
    return reply.code(204).send(null);
  });

  // Media by signed address: <img> and <audio> cannot send a bearer header.
  const media = {
    schema: {
      tags,
      params: ZIdParamsSchema,
      querystring: z.object({
        expires: z.coerce.number('INVALID').int('INVALID'),
        signature: z.string('INVALID').max(200),
        // The file's name at the address's end, for whaticket's chat (see signedMediaUrl); not read.
        name: z.string('INVALID').max(400).optional(),
        // An audio's copy for browsers without Ogg Opus (Safari before 18.4): AAC in MP4, see audio-variant.ts.
        format: z.enum(['m4a'], 'INVALID').optional(),
      }),
    },
  };
  const sendMedia = async (
    req: FastifyRequest<{ Params: z.infer<typeof ZIdParamsSchema>; Querystring: { expires: number; signature: string; name?: string | undefined; format?: 'm4a' | undefined } }>,
    reply: FastifyReply,
  ) => {
    const { file, name, type, inline } = await service.mediaOfMessage(ctx, req.params.id, req.query);
    // For a caching proxy in front (deploy/nginx): the signed address's answer may be kept until the address
    // expires; nginx keeps an entry through the whole second named (hence the second before), and drops the header.
    const proxyCacheUntil = `@${req.query.expires - 1}`;
    return reply
      .header('cache-control', 'private, max-age=3600')
      .header('x-accel-expires', proxyCacheUntil)
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', name))
      .type(type)
      .send(fs.createReadStream(file));
  };
  app.get('/media/:id', media, sendMedia);
  // whaticket's chat fetches a picture through its API client, whose base URL (`<origin>/api`) is
  // put before our relative address: /api/api/media/…. That address, and only it, is served too.
  app.get('/api/media/:id', { ...media, schema: { ...media.schema, hide: true } }, sendMedia);
};
