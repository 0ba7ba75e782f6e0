import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZPublicSettingsSchema, ZSettingParamsSchema, ZSettingSchema, ZSettingUpdateSchema } from '@zapdesk/shared/schemas';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { textField } from '../../core/http/audit-hook.js';
import { authenticate, isAdmin, requireAdmin } from '../../core/http/auth-hooks.js';
import * as service from './settings.service.js';
import { defaultCountryCode } from './typed-numbers.js';

export const settingsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['settings'];
  const onRequest = requirePermission(ctx, 'settings');

  // Read before anyone signs in (the login page hides its sign-up link while sign-up is off): only what is safe to tell anyone.
  app.get('/public-settings', { schema: { tags, response: { 200: ZPublicSettingsSchema } } }, () => service.publicSettings(ctx));

  // The userApiToken acts with admin rights: only admins read it or make a new one.
  app.get('/settings', { schema: { tags, response: { 200: z.array(ZSettingSchema) } }, onRequest }, async (req) => {
    const settings = await service.listSettings(ctx);
    return isAdmin(req) ? settings : settings.filter((s) => s.key !== 'userApiToken');
  });

  // Every signed-in user's forms read typed numbers as the server will: they need the default country code.
  app.get('/settings/phone-numbers', { schema: { tags, response: { 200: z.object({ defaultCountryCode: z.string() }) } }, onRequest: authenticate(ctx) }, async () => ({
    defaultCountryCode: await defaultCountryCode(ctx),
  }));

  app.put(
    '/settings/:key',
    {
      schema: { tags, params: ZSettingParamsSchema, body: ZSettingUpdateSchema, response: { 200: ZSettingSchema } },
      onRequest,
      // Only the key: a value may be a secret.
      config: { audit: { action: 'settings.update', target: 'setting', pick: ({ params }) => ({ targetId: textField(params, 'key') ?? null }) } },
    },
    (req) => service.updateSetting(ctx, req.params.key, req.body.value),
  );

  app.post(
    '/settings/userApiToken/regenerate',
    {
      schema: { tags, response: { 200: ZSettingSchema } },
      onRequest: requireAdmin(ctx),
      config: { audit: { action: 'settings.api_token_regenerate', target: 'setting', pick: () => ({ targetId: 'userApiToken' }) } },
    },
    () => service.regenerateApiToken(ctx),
  );
};
