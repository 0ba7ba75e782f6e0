/** Campaign routes for signed-in users: create, follow, control, the history and its export. */
import fs from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZCampaignCreateSchema,
  ZCampaignCreatedSchema,
  ZCampaignListQuerySchema,
  ZCampaignListSchema,
  ZCampaignSchema,
  ZCampaignUpdateSchema,
  ZRecipientListQuerySchema,
  ZRecipientListSchema,
  type TCampaign,
} from '@zapdesk/shared/campaigns';
import { ZRecordingSchema } from '@zapdesk/shared/media-library';
import { isAdminProfile } from '@zapdesk/shared/domain';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { currentUser } from '../../core/http/auth-hooks.js';
import { uploadOptions, withUpload } from '../../core/http/uploads.js';
import { saveRecording } from './campaign-media.js';
import * as service from './campaigns.service.js';
import { sendAudit } from './campaign-audit.js';
import { actorOf, campaignPermission, sessionOrApiToken, type ToolActor } from './tool-auth.js';

export function sessionActor(req: FastifyRequest): service.CampaignActor {
  const user = currentUser(req);
  return { userId: user.id, admin: isAdminProfile(user.profile), source: 'page', permissions: user.permissions };
}

/** The route's own errors of a recording's upload (one file, `file`). */
const RECORDING_UPLOAD = {
  maxFiles: 1,
  invalid: (message: string) => new AppError('ERR_INVALID_UPLOAD', { message: `${message} Send the recording as multipart/form-data in a field named file.`, fields: { file: 'INVALID' } }),
  tooManyFiles: () => new AppError('ERR_INVALID_UPLOAD', { message: 'One recording at a time.', fields: { file: 'INVALID' } }),
};

export const campaignsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['campaigns'];
  // Bulk and scheduled sends. A send's own state (GET /campaigns/{id}) stays readable by its author
  // whatever their role: the group, SMS and Instagram pages follow their sends through it.
  const onRequest = requirePermission(ctx, 'campaigns');
  // A session follows its sends all day; an API token's reads are its uses, and are recorded.
  const tokenRead = { action: 'apiToken.use', target: 'campaign', onlyApiToken: true } as const;

  app.post(
    '/campaigns',
    { schema: { tags, body: ZCampaignCreateSchema, response: { 201: ZCampaignCreatedSchema } }, onRequest, config: { audit: { action: 'campaigns.create', target: 'campaign', pick: sendAudit } } },
    async (req, reply) => reply.code(201).send(await service.createCampaign(ctx, sessionActor(req), req.body)),
  );

  app.get('/campaigns', { schema: { tags, querystring: ZCampaignListQuerySchema, response: { 200: ZCampaignListSchema } }, onRequest }, (req) =>
    service.listCampaigns(ctx, sessionActor(req), req.query),
  );

  app.get('/campaigns/export', { schema: { tags, querystring: ZCampaignListQuerySchema, produces: ['text/csv'] }, onRequest, config: { audit: 'campaigns.export' } }, async (req, reply) => {
    const csv = await service.exportCampaignsCsv(ctx, sessionActor(req), req.query);
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="zdg.csv"').send(csv);
  });

  /**
   * A named token reads only the kinds of send its permissions allow it to make; another is not
   * found for it, as someone else's send is not for a plain user.
   */
  const inTokenScope = (actor: ToolActor, campaign: TCampaign) => {
    if (actor.token && !actor.permissions.has(campaignPermission(campaign))) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
    return campaign;
  };

  // A send's state, also for the tool API's tokens (its sends answer with this id).
  app.get('/campaigns/:id', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZCampaignSchema } }, preValidation: sessionOrApiToken(ctx), config: { audit: tokenRead } }, async (req) =>
    inTokenScope(actorOf(req), await service.getCampaign(ctx, actorOf(req), req.params.id)),
  );

  // Each recipient's (each group's) result, also for the tokens.
  app.get(
    '/campaigns/:id/recipients',
    { schema: { tags, params: ZIdParamsSchema, querystring: ZRecipientListQuerySchema, response: { 200: ZRecipientListSchema } }, preValidation: sessionOrApiToken(ctx), config: { audit: tokenRead } },
    async (req) => {
      const actor = actorOf(req);
      if (actor.token) inTokenScope(actor, await service.getCampaign(ctx, actor, req.params.id));
      return service.listCampaignRecipients(ctx, actor, req.params.id, req.query);
    },
  );

  app.put(
    '/campaigns/:id',
    { schema: { tags, params: ZIdParamsSchema, body: ZCampaignUpdateSchema, response: { 200: ZCampaignSchema } }, onRequest, config: { audit: { action: 'campaigns.update', target: 'campaign' } } },
    (req) => service.updateCampaign(ctx, sessionActor(req), req.params.id, req.body),
  );

  const controls = { pause: service.pauseCampaign, resume: service.resumeCampaign, cancel: service.cancelCampaign, resend: service.resendCampaign } as const;
  for (const action of ['pause', 'resume', 'cancel', 'resend'] as const) {
    const run = controls[action];
    app.post(
      `/campaigns/:id/${action}`,
      { schema: { tags, params: ZIdParamsSchema, response: { 200: ZCampaignSchema } }, onRequest, config: { audit: { action: `campaigns.${action}`, target: 'campaign' } } },
      (req) => run(ctx, sessionActor(req), req.params.id),
    );
  }

  app.post('/local-media/recordings', { schema: { tags, consumes: ['multipart/form-data'], response: { 201: ZRecordingSchema } }, onRequest }, async (req, reply) => {
    const saved = await withUpload(req, reply, uploadOptions(ctx, currentUser(req).id, RECORDING_UPLOAD), async ({ files }) => {
      const file = files[0];
      if (!file) throw new AppError('ERR_INVALID_UPLOAD', { fields: { file: 'REQUIRED' } });
      // A voice note is checked (and rewrapped) whole; its size is bounded by the upload limits.
      return saveRecording(ctx, { data: await fs.readFile(file.path), mimetype: file.mimetype });
    });
    return reply.code(201).send({ path: saved });
  });
};
