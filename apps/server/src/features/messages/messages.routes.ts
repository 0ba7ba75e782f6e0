import fs from 'node:fs';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_ID } from '@zapdesk/shared/domain';
import { ZMessageListSchema, ZMessagePageQuerySchema, ZMessageSchema, ZSendMediaFieldsSchema, ZSendTextSchema } from '@zapdesk/shared/messaging';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { authenticate, currentUser } from '../../core/http/auth-hooks.js';
import * as service from './messages.service.js';

/**
 * The files and text fields of a multipart message. A body cut short, never terminated or not
 * multipart at all is the client's error (400), not a 500; an oversized file keeps its 413.
 */
async function readMultipart(req: FastifyRequest): Promise<{ medias: service.UploadedMedia[]; fields: { body: string; quotedMsgId?: string } }> {
  const medias: service.UploadedMedia[] = [];
  const fields: { body: string; quotedMsgId?: string } = { body: '' };
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (medias.length >= MAX_MEDIAS) throw new AppError('ERR_TOO_MANY_FILES', { message: `At most ${MAX_MEDIAS} files per message.`, fields: { medias: 'TOO_LONG' } });
        medias.push({ data: await part.toBuffer(), mimetype: part.mimetype, filename: part.filename || 'file' });
      } else if (part.fieldname === 'body') fields.body = String(part.value);
      else if (part.fieldname === 'quotedMsgId') fields.quotedMsgId = String(part.value);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (typeof error === 'object' && error !== null && 'statusCode' in error && error.statusCode === 413) throw error;
    throw new AppError('ERR_INVALID_UPLOAD', { message: `The upload could not be read: ${error instanceof Error ? error.message : String(error)}`, fields: { medias: 'INVALID' } });
  }
  return { medias, fields };
}

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
const MAX_MEDIAS = 10;

export const messagesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; sessions: SessionManager }> = async (app, { ctx, sessions }) => {
  const tags = ['messages'];
  const onRequest = authenticate(ctx);

  app.get('/messages/:ticketId', { schema: { tags, params: ZTicketParams, querystring: ZMessagePageQuerySchema, response: { 200: ZMessageListSchema } }, onRequest }, (req) =>
    service.listMessages(ctx, sessions, currentUser(req), req.params.ticketId, req.query.pageNumber),
  );

  // JSON {body, quotedMsg} or multipart: `medias` files plus `body`.
  app.post('/messages/:ticketId', { schema: { tags, params: ZTicketParams, response: { 201: z.array(ZMessageSchema) } }, onRequest }, async (req, reply) => {
    const actor = currentUser(req);
    if (req.isMultipart()) {
      const { medias, fields } = await readMultipart(req);
      if (medias.length === 0) throw new AppError('ERR_VALIDATION', { message: 'Send at least one file in `medias`.', fields: { medias: 'REQUIRED' } });
      const parsed = ZSendMediaFieldsSchema.safeParse(fields);
      if (!parsed.success) {
        const issues = Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.') || 'body', i.message]));
        throw new AppError('ERR_VALIDATION', { message: 'The caption is too long or invalid.', fields: issues });
      }
      return reply.code(201).send(await service.sendMessage(ctx, sessions, actor, req.params.ticketId, { body: parsed.data.body, quotedMsgId: parsed.data.quotedMsgId, medias }));
    }
    const parsed = ZSendTextSchema.safeParse(req.body);
    if (!parsed.success) {
      const fields = Object.fromEntries(parsed.error.issues.map((i) => [i.path.join('.') || 'body', i.message]));
      throw new AppError('ERR_VALIDATION', { message: 'The message is empty or invalid.', fields });
    }
    return reply.code(201).send(await service.sendMessage(ctx, sessions, actor, req.params.ticketId, { body: parsed.data.body, quotedMsgId: parsed.data.quotedMsg?.id ?? null }));
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
  app.get(
    '/media/:id',
    { schema: { tags, params: ZIdParamsSchema, querystring: z.object({ expires: z.coerce.number('INVALID').int('INVALID'), signature: z.string('INVALID').max(200) }) } },
    async (req, reply) => {
      const { file, name, type, inline } = await service.mediaOfMessage(ctx, req.params.id, req.query);
      return reply
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', name))
        .type(type)
        .send(fs.createReadStream(file));
    },
  );
};
