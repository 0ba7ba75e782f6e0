import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZFirstRunSchema } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { currentUser, requireAdmin } from '../../core/http/auth-hooks.js';
import * as service from './onboarding.service.js';

export const onboardingRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['onboarding'];
  const onRequest = requireAdmin(ctx);

  app.get('/onboarding', { schema: { tags, response: { 200: ZFirstRunSchema } }, onRequest }, (req) => service.firstRun(ctx, currentUser(req).id));

  app.post('/onboarding/dismiss', { schema: { tags, response: { 200: ZFirstRunSchema } }, onRequest }, (req) => service.dismissFirstRun(ctx, currentUser(req).id));
};
