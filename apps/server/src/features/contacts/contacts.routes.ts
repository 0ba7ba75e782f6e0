import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZContactImportResultSchema, ZContactInputSchema, ZContactListSchema, ZContactSchema, ZIdParamsSchema, ZListQuerySchema } from '@zapdesk/shared/schemas';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { authenticate, currentUser } from '../../core/http/auth-hooks.js';
import { parseContactsCsv } from './contacts.csv.js';
import * as service from './contacts.service.js';

export const contactsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['contacts'];
  const onRequest = authenticate(ctx);

  app.get('/contacts', { schema: { tags, querystring: ZListQuerySchema, response: { 200: ZContactListSchema } }, onRequest }, (req) => service.listContacts(ctx, currentUser(req), req.query));

  app.get('/contacts/export', { schema: { tags, produces: ['text/csv'] }, onRequest: requirePermission(ctx, 'contactsImportExport') }, async (req, reply) => {
    const csv = await service.exportContactsCsv(ctx, currentUser(req));
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="zdg.csv"').send(csv);
  });

  app.get('/contacts/:id', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZContactSchema } }, onRequest }, (req) => service.getVisibleContact(ctx, currentUser(req), req.params.id));

  app.post('/contacts', { schema: { tags, body: ZContactInputSchema, response: { 201: ZContactSchema } }, onRequest }, async (req, reply) =>
    reply.code(201).send(await service.createContact(ctx, req.body)),
  );

  app.post('/contact', { schema: { tags, body: ZContactInputSchema, response: { 200: ZContactSchema } }, onRequest }, (req) => service.findOrCreateContact(ctx, currentUser(req), req.body));

  app.put('/contacts/:id', { schema: { tags, params: ZIdParamsSchema, body: ZContactInputSchema, response: { 200: ZContactSchema } }, onRequest }, (req) =>
    service.updateContact(ctx, currentUser(req), req.params.id, req.body),
  );

  app.delete('/contacts/:id', { schema: { tags, params: ZIdParamsSchema, response: { 204: z.null() } }, onRequest: requirePermission(ctx, 'contactsDelete') }, async (req, reply) => {
    await service.deleteContact(ctx, req.params.id);
    return reply.code(204).send(null);
  });

  app.post(
    '/contacts/import',
    { schema: { tags, consumes: ['multipart/form-data'], response: { 200: ZContactImportResultSchema } }, onRequest: requirePermission(ctx, 'contactsImportExport') },
    async (req) => {
      const { rows, invalid } = parseContactsCsv(await readUploadedFile(req));
      return service.importContacts(ctx, rows, invalid);
    },
  );
};

const SEND_AS_MULTIPART = 'Send the CSV as multipart/form-data in a field named file.';

/** The uploaded file as text. A malformed multipart body is the client's error (400), not a 500. */
async function readUploadedFile(req: FastifyRequest): Promise<string> {
  if (!req.isMultipart()) throw new AppError('ERR_INVALID_CSV', { message: SEND_AS_MULTIPART });
  let buffer: Buffer | undefined;
  try {
    const file = await req.file();
    buffer = file ? await file.toBuffer() : undefined;
  } catch (error) {
    // An oversized file keeps its 413; anything else here is an unreadable body.
    if (typeof error === 'object' && error !== null && 'statusCode' in error && error.statusCode === 413) throw error;
    throw new AppError('ERR_INVALID_CSV', { message: `The upload could not be read: ${error instanceof Error ? error.message : String(error)}` });
  }
  if (!buffer) throw new AppError('ERR_INVALID_CSV', { message: SEND_AS_MULTIPART });
  return buffer.toString('utf8');
}
