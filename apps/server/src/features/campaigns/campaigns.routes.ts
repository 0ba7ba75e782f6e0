/** Campaign routes for signed-in users: create, follow, control, the history and its export. */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZCampaignCreateSchema,
  ZCampaignCreatedSchema,
  ZCampaignListQuerySchema,
  ZCampaignListSchema,
  ZCampaignSchema,
  ZCampaignUpdateSchema,
  ZLocalMediaListSchema,
  ZRecipientListQuerySchema,
  ZRecipientListSchema,
  ZRecordingSchema,
} from '@zapdesk/shared/campaigns';
import { isAdminProfile } from '@zapdesk/shared/domain';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { currentUser } from '../../core/http/auth-hooks.js';
import { listLocalMedia, saveRecording } from './campaign-media.js';
import * as service from './campaigns.service.js';
import { actorOf, sessionOrApiToken } from './tool-auth.js';

export function sessionActor(req: FastifyRequest): service.CampaignActor {
  const user = currentUser(req);
  return { userId: user.id, admin: isAdminProfile(user.profile), source: 'page', permissions: user.permissions };
}

/** The one file of a multipart upload; a malformed body is a 400, an oversized file keeps its 413. */
async function readOneFile(req: FastifyRequest): Promise<{ data: Buffer; mimetype: string }> {
  if (!req.isMultipart()) throw new AppError('ERR_INVALID_UPLOAD', { message: 'Send the recording as multipart/form-data in a field named file.', fields: { file: 'REQUIRED' } });
  try {
    const file = await req.file();
    if (!file) throw new AppError('ERR_INVALID_UPLOAD', { fields: { file: 'REQUIRED' } });
    return { data: await file.toBuffer(), mimetype: file.mimetype };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (typeof error === 'object' && error !== null && 'statusCode' in error && error.statusCode === 413) throw error;
    throw new AppError('ERR_INVALID_UPLOAD', { fields: { file: 'INVALID' } });
  }
}

export const campaignsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['campaigns'];
  // Bulk and scheduled sends. A send's own state (GET /campaigns/{id}) stays readable by its author
  // whatever their role: the group, SMS and Instagram pages follow their sends through it.
  const onRequest = requirePermission(ctx, 'campaigns');

  app.post('/campaigns', { schema: { tags, body: ZCampaignCreateSchema, response: { 201: ZCampaignCreatedSchema } }, onRequest }, async (req, reply) =>
    reply.code(201).send(await service.createCampaign(ctx, sessionActor(req), req.body)),
  );

  app.get('/campaigns', { schema: { tags, querystring: ZCampaignListQuerySchema, response: { 200: ZCampaignListSchema } }, onRequest }, (req) =>
    service.listCampaigns(ctx, sessionActor(req), req.query),
  );

  app.get('/campaigns/export', { schema: { tags, querystring: ZCampaignListQuerySchema, produces: ['text/csv'] }, onRequest }, async (req, reply) => {
    const csv = await service.exportCampaignsCsv(ctx, sessionActor(req), req.query);
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="zdg.csv"').send(csv);
  });

  // A send's state, also for the tool API's token (its sends answer with this id).
  app.get('/campaigns/:id', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZCampaignSchema } }, preValidation: sessionOrApiToken(ctx) }, (req) =>
    service.getCampaign(ctx, actorOf(req), req.params.id),
  );

  // Each recipient's (each group's) result, also for the token.
  app.get(
    '/campaigns/:id/recipients',
    { schema: { tags, params: ZIdParamsSchema, querystring: ZRecipientListQuerySchema, response: { 200: ZRecipientListSchema } }, preValidation: sessionOrApiToken(ctx) },
    (req) => service.listCampaignRecipients(ctx, actorOf(req), req.params.id, req.query),
  );

  app.put('/campaigns/:id', { schema: { tags, params: ZIdParamsSchema, body: ZCampaignUpdateSchema, response: { 200: ZCampaignSchema } }, onRequest }, (req) =>
    service.updateCampaign(ctx, sessionActor(req), req.params.id, req.body),
  );

  const controls = { pause: service.pauseCampaign, resume: service.resumeCampaign, cancel: service.cancelCampaign, resend: service.resendCampaign } as const;
  for (const [action, run] of Object.entries(controls)) {
    app.post(`/campaigns/:id/${action}`, { schema: { tags, params: ZIdParamsSchema, response: { 200: ZCampaignSchema } }, onRequest }, (req) => run(ctx, sessionActor(req), req.params.id));
  }

  app.get('/local-media', { schema: { tags, response: { 200: ZLocalMediaListSchema } }, onRequest }, async () => ({ files: await listLocalMedia(ctx) }));

  app.post('/local-media/recordings', { schema: { tags, consumes: ['multipart/form-data'], response: { 201: ZRecordingSchema } }, onRequest }, async (req, reply) => {
    const file = await readOneFile(req);
    return reply.code(201).send({ path: await saveRecording(ctx, file) });
  });
};
