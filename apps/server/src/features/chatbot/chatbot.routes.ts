/** The chatbot's state for admins: whether it is on and set up, and its latest error. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../core/context.js';
import { ZIdParamsSchema } from '@zapdesk/shared/schemas';
import { authenticate, currentUser, requireAdmin } from '../../core/http/auth-hooks.js';
import { getVisibleTicket } from '../tickets/tickets.service.js';
import { chatbotFrame, chatbotOfTicket, chatbotStatus } from './chatbot.service.js';

export const ZChatbotStatusSchema = z.object({
  enabled: z.boolean(),
  lastError: z.object({ ticketId: z.number(), lastError: z.string(), errorAt: z.string() }).nullable(),
});

export const chatbotRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // The /ZDGChatbot page: the Typebot address to frame (every signed-in user).
  app.get('/chatbot/frame', { schema: { tags: ['chatbot'], response: { 200: z.object({ url: z.string().nullable(), enabled: z.boolean() }) } }, onRequest: authenticate(ctx) }, () =>
    chatbotFrame(ctx),
  );

  // The bot on one ticket: whether it answers there, and its latest error there (for those who may see the ticket).
  app.get(
    '/chatbot/tickets/:id',
    {
      schema: {
        tags: ['chatbot'],
        params: ZIdParamsSchema,
        response: { 200: z.object({ status: z.enum(['active', 'off', 'ended']).nullable(), lastError: z.string().nullable(), errorAt: z.string().nullable() }) },
      },
      onRequest: authenticate(ctx),
    },
    async (req) => {
      await getVisibleTicket(ctx, currentUser(req), req.params.id);
      return chatbotOfTicket(ctx, req.params.id);
    },
  );

  app.get('/chatbot/status', { schema: { tags: ['chatbot'], response: { 200: ZChatbotStatusSchema } }, onRequest: requireAdmin(ctx) }, () => chatbotStatus(ctx));
};
