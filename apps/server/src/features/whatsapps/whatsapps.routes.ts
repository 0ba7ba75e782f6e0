import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZWhatsappSchema } from '@zapdesk/shared/schemas';
import type { AppContext } from '../../core/context.js';
import { authenticate } from '../../core/http/auth-hooks.js';
import { listWhatsapps } from './whatsapps.repository.js';

export const whatsappsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/whatsapp', { schema: { tags: ['connections'], response: { 200: z.array(ZWhatsappSchema) } }, onRequest: authenticate(ctx) }, () => listWhatsapps(ctx.db));
};
