import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZSettingParamsSchema, ZSettingSchema, ZSettingUpdateSchema } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { requireAdmin } from '../../core/http/auth-hooks.js';
import * as service from './settings.service.js';

export const settingsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['settings'];
  const onRequest = requireAdmin(ctx);

  app.get('/settings', { schema: { tags, response: { 200: z.array(ZSettingSchema) } }, onRequest }, () => service.listSettings(ctx));

  app.put('/settings/:key', { schema: { tags, params: ZSettingParamsSchema, body: ZSettingUpdateSchema, response: { 200: ZSettingSchema } }, onRequest }, (req) =>
    service.updateSetting(ctx, req.params.key, req.body.value),
  );

  app.post('/settings/userApiToken/regenerate', { schema: { tags, response: { 200: ZSettingSchema } }, onRequest }, () => service.regenerateApiToken(ctx));
};
