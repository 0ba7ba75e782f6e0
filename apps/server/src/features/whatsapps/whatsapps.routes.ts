import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZPairingCodeRequestSchema, ZWhatsappInputSchema } from '@zapdesk/shared/messaging';
import type { AuditAction } from '@zapdesk/shared/audit';
import { ZIdParamsSchema, ZWhatsappSchema } from '@zapdesk/shared/schemas';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { requirePermission } from '../../core/auth/permissions.js';
import { replyIdAndName } from '../../core/http/audit-hook.js';
import { authenticate, currentUser } from '../../core/http/auth-hooks.js';
import * as service from './whatsapps.service.js';

export const whatsappsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; sessions: SessionManager }> = async (app, { ctx, sessions }) => {
  const tags = ['connections'];
  // The list stays readable by every signed-in user: each sending form picks its connection from it.
  const admin = requirePermission(ctx, 'connectionsManage');
  const session = (action: AuditAction) => ({ audit: { action, target: 'whatsapp' as const, pick: replyIdAndName } });

  // whaticket's connections list (useWhatsApps) asks for '/whatsapp/': the same list by an explicit alias (hidden from the docs).
  for (const url of ['/whatsapp', '/whatsapp/']) {
    app.get(url, { schema: { tags, hide: url.endsWith('/'), response: { 200: z.array(ZWhatsappSchema) } }, onRequest: authenticate(ctx) }, (req) => service.listWhatsappsFor(ctx, currentUser(req)));
  }

  app.get('/whatsapp/:id', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZWhatsappSchema } }, onRequest: requirePermission(ctx, 'connectionsView') }, (req) =>
    service.getWhatsappFor(ctx, currentUser(req), req.params.id),
  );

  app.post(
    '/whatsapp',
    { schema: { tags, body: ZWhatsappInputSchema, response: { 201: ZWhatsappSchema } }, onRequest: admin, config: { audit: { action: 'whatsapps.create', target: 'whatsapp', pick: replyIdAndName } } },
    async (req, reply) => reply.code(201).send(await service.createWhatsapp(ctx, sessions, req.body)),
  );

  app.put(
    '/whatsapp/:id',
    {
      schema: { tags, params: ZIdParamsSchema, body: ZWhatsappInputSchema, response: { 200: ZWhatsappSchema } },
      onRequest: admin,
      config: { audit: { action: 'whatsapps.update', target: 'whatsapp', pick: replyIdAndName } },
    },
    (req) => service.updateWhatsapp(ctx, sessions, req.params.id, req.body),
  );

  app.delete(
    '/whatsapp/:id',
    { schema: { tags, params: ZIdParamsSchema, response: { 204: z.null() } }, onRequest: admin, config: { audit: { action: 'whatsapps.delete', target: 'whatsapp' } } },
    async (req, reply) => {
      await service.deleteWhatsapp(ctx, sessions, req.params.id);
      return reply.code(204).send(null);
    },
  );

  // Sessions: retry, new QR code, disconnect and log out.
  app.post('/whatsappsession/:id', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZWhatsappSchema } }, onRequest: admin, config: session('whatsapps.session_start') }, async (req) => {
    await service.getWhatsapp(ctx, req.params.id);
    await sessions.start(req.params.id);
    return service.getWhatsapp(ctx, req.params.id);
  });

  app.put('/whatsappsession/:id', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZWhatsappSchema } }, onRequest: admin, config: session('whatsapps.session_restart') }, async (req) => {
    await service.getWhatsapp(ctx, req.params.id);
    await sessions.logout(req.params.id);
    await sessions.start(req.params.id);
    return service.getWhatsapp(ctx, req.params.id);
  });

  app.delete('/whatsappsession/:id', { schema: { tags, params: ZIdParamsSchema, response: { 200: ZWhatsappSchema } }, onRequest: admin, config: session('whatsapps.session_logout') }, async (req) => {
    await service.getWhatsapp(ctx, req.params.id);
    await sessions.logout(req.params.id);
    return service.getWhatsapp(ctx, req.params.id);
  });

  app.post(
    '/whatsappsession/:id/pairing-code',
    {
      schema: { tags, params: ZIdParamsSchema, body: ZPairingCodeRequestSchema, response: { 200: z.object({ code: z.string() }) } },
      onRequest: admin,
      // Never the code: it links a phone.
      config: { audit: { action: 'whatsapps.pairing_code', target: 'whatsapp' } },
    },
    async (req) => ({ code: await (await sessions.require(req.params.id)).requestPairingCode(req.body.phoneNumber) }),
  );
};
