import fs from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZContactByNumberQuerySchema, ZContactByNumberSchema, ZContactImportResultSchema, ZContactInputSchema, ZContactListSchema, ZContactSchema, ZIdParamsSchema } from '@zapdesk/shared/schemas';
import { ZContactListQuerySchema } from '@zapdesk/shared/labels';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { compact, numberField } from '../../core/http/audit-hook.js';
import { authenticate, currentUser } from '../../core/http/auth-hooks.js';
import { uploadOptions, withUpload } from '../../core/http/uploads.js';
import { parseContactsCsv } from './contacts.csv.js';
import * as service from './contacts.service.js';

export const contactsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['contacts'];
  const onRequest = authenticate(ctx);

  const list = { schema: { tags, querystring: ZContactListQuerySchema, response: { 200: ZContactListSchema } }, onRequest };
  app.get('/contacts', list, (req) => service.listContacts(ctx, currentUser(req), req.query));
  // whaticket's Contacts page asks with a trailing slash.
  app.get('/contacts/', { ...list, schema: { ...list.schema, hide: true } }, (req) => service.listContacts(ctx, currentUser(req), req.query));

  app.get('/contacts/export', { schema: { tags, produces: ['text/csv'] }, onRequest: requirePermission(ctx, 'contactsImportExport'), config: { audit: 'contacts.export' } }, async (req, reply) => {
    const csv = await service.exportContactsCsv(ctx, currentUser(req));
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="zdg.csv"').send(csv);
  });

  app.get('/contacts/by-number', { schema: { tags, querystring: ZContactByNumberQuerySchema, response: { 200: ZContactByNumberSchema } }, onRequest }, (req) =>
    service.findByNumber(ctx, currentUser(req), req.query.number),
  );

  app.get('/contacts/:id', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZContactSchema } }, onRequest }, (req) => service.getVisibleContact(ctx, currentUser(req), req.params.id));

  app.post('/contacts', { schema: { tags, body: ZContactInputSchema, response: { 201: ZContactSchema } }, onRequest }, async (req, reply) =>
    reply.code(201).send(await service.createTypedContact(ctx, req.body)),
  );

  app.post('/contact', { schema: { tags, body: ZContactInputSchema, response: { 200: ZContactSchema } }, onRequest }, (req) => service.findOrCreateContact(ctx, currentUser(req), req.body));

  app.put('/contacts/:id', { schema: { tags, params: ZIdParamsSchema, body: ZContactInputSchema, response: { 200: ZContactSchema } }, onRequest }, (req) =>
    service.updateContact(ctx, currentUser(req), req.params.id, req.body),
  );

  app.delete(
    '/contacts/:id',
    {
      schema: { tags, params: ZIdParamsSchema, response: { 204: z.null() } },
      onRequest: requirePermission(ctx, 'contactsDelete'),
      config: { audit: { action: 'contacts.delete', target: 'contact' } },
    },
    async (req, reply) => {
      await service.deleteContact(ctx, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/contacts/import',
    {
      schema: { tags, consumes: ['multipart/form-data'], response: { 200: ZContactImportResultSchema } },
      onRequest: requirePermission(ctx, 'contactsImportExport'),
      config: { audit: { action: 'contacts.import', pick: ({ reply }) => ({ detail: compact({ created: numberField(reply, 'created') }) }) } },
    },
    async (req, reply) => {
      // whaticket's Contacts page posts nothing: its server read the contacts off the phone. A
      // session here cannot list the phone's address book, so that call gets a clear refusal.
      if (!req.isMultipart() && !req.headers['content-type'] && Number(req.headers['content-length'] ?? 0) === 0) throw new AppError('ERR_INVALID_CSV', { message: PHONE_IMPORT });
      const { rows, invalid } = parseContactsCsv(await readUploadedFile(ctx, req, reply));
      return service.importContacts(ctx, rows, invalid);
    },
  );
};

const PHONE_IMPORT = 'Contacts are not imported from the phone: export them as a CSV (name, number, email) and import the file in Contacts.';
const SEND_AS_MULTIPART = 'Send the CSV as multipart/form-data in a field named file.';

/** The route's own errors of a CSV's upload (one file). */
const CSV_UPLOAD = {
  maxFiles: 1,
  invalid: (message: string) => new AppError('ERR_INVALID_CSV', { message: `${message} ${SEND_AS_MULTIPART}` }),
  tooManyFiles: () => new AppError('ERR_INVALID_CSV', { message: `One file only. ${SEND_AS_MULTIPART}` }),
};

/** The uploaded file as text (streamed to a temporary file first, within the upload limits). */
async function readUploadedFile(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<string> {
  return withUpload(req, reply, uploadOptions(ctx, currentUser(req).id, CSV_UPLOAD), async ({ files }) => {
    const file = files[0];
    if (!file) throw new AppError('ERR_INVALID_CSV', { message: SEND_AS_MULTIPART });
    return fs.readFile(file.path, 'utf8');
  });
}
