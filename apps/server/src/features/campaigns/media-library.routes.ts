/**
 * The media library's routes (the 'media by local path' page): list, add, preview and remove the
 * files of LOCAL_MEDIA_DIR, with the bulk pages' permission; and a campaign's own file, for the
 * send history's preview.
 */
import fs from 'node:fs';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZLocalMediaFileSchema, ZLocalMediaListSchema, ZLocalMediaPathQuerySchema } from '@zapdesk/shared/media-library';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { textField } from '../../core/http/audit-hook.js';
import { currentUser } from '../../core/http/auth-hooks.js';
import { uploadOptions, withUpload } from '../../core/http/uploads.js';
import { mediaFile } from '../messages/media-store.js';
import { resolveLocalPath } from './campaign-media.js';
import { sessionActor } from './campaigns.routes.js';
import { visibleCampaign } from './campaigns.service.js';
import { addToLibrary, libraryMaxBytes, libraryMimeOf, listLibrary, removeFromLibrary } from './media-library.js';

const LIBRARY_UPLOAD = {
  maxFiles: 1,
  invalid: (message: string) => new AppError('ERR_INVALID_UPLOAD', { message: `${message} Send the file as multipart/form-data in a field named file.`, fields: { file: 'INVALID' } }),
  tooManyFiles: () => new AppError('ERR_INVALID_UPLOAD', { message: 'One file at a time.', fields: { file: 'INVALID' } }),
};

/** A stored file for the page to show: never guessed from its bytes by the browser, never a page of its own. */
function sendFile(reply: FastifyReply, file: string, type: string) {
  return reply
    .header('cache-control', 'private, max-age=300')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('content-disposition', 'inline')
    .type(type)
    .send(fs.createReadStream(file));
}

export const mediaLibraryRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['campaigns'];
  const onRequest = requirePermission(ctx, 'campaigns');

  app.get('/local-media', { schema: { tags, response: { 200: ZLocalMediaListSchema } }, onRequest }, async () => ({ files: await listLibrary(ctx), maxBytes: libraryMaxBytes(ctx) }));

  app.post(
    '/local-media',
    {
      schema: {
        tags,
        description: 'Adds one file (field `file`) to the media library: a photo, an MP4 video, an audio file or a PDF, within the size limit.',
        consumes: ['multipart/form-data'],
        response: { 201: ZLocalMediaFileSchema },
      },
      onRequest,
      config: { audit: { action: 'campaigns.media_add', pick: ({ reply }) => ({ targetName: textField(reply, 'path') ?? null }) } },
    },
    async (req, reply) => {
      const added = await withUpload(req, reply, uploadOptions(ctx, currentUser(req).id, LIBRARY_UPLOAD), async ({ files }) => {
        const file = files[0];
        if (!file) throw new AppError('ERR_INVALID_UPLOAD', { fields: { file: 'REQUIRED' } });
        return addToLibrary(ctx, file);
      });
      return reply.code(201).send(added);
    },
  );

  app.delete(
    '/local-media',
    {
      schema: { tags, description: 'Removes one file of the media library.', querystring: ZLocalMediaPathQuerySchema },
      onRequest,
      config: { audit: { action: 'campaigns.media_remove', pick: ({ query }) => ({ targetName: textField(query, 'path') ?? null }) } },
    },
    async (req, reply) => {
      await removeFromLibrary(ctx, req.query.path);
      return reply.code(204).send();
    },
  );

  app.get('/local-media/file', { schema: { tags, description: 'One file of the media library, to preview it.', querystring: ZLocalMediaPathQuerySchema }, onRequest }, async (req, reply) => {
    const file = await resolveLocalPath(ctx, req.query.path);
    return sendFile(reply, file, libraryMimeOf(file));
  });

  app.get('/campaigns/:id/media', { schema: { tags, description: "A send's file, as it was sent.", params: ZIdParamsSchema }, onRequest }, async (req, reply) => {
    const row = await visibleCampaign(ctx, sessionActor(req), req.params.id);
    const file = row.mediaPath ? mediaFile(ctx, row.mediaPath) : undefined;
    if (!file || !fs.existsSync(file)) throw new AppError('ERR_MEDIA_PATH_NOT_FOUND');
    return sendFile(reply, file, (row.mediaMimetype ?? 'application/octet-stream').split(';')[0] ?? 'application/octet-stream');
  });
};
