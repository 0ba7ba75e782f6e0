/** Every route of the API, in one list: the app mounts them under `/api`. */
import type { FastifyPluginAsync } from 'fastify';
import type { SessionManager } from './channels/session-manager.js';
import type { Config } from './core/config.js';
import type { AppContext } from './core/context.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { twoFactorRoutes } from './features/auth/two-factor.routes.js';
import { contactsRoutes } from './features/contacts/contacts.routes.js';
import { queuesRoutes } from './features/queues/queues.routes.js';
import { labelsRoutes } from './features/labels/labels.routes.js';
import { quickAnswersRoutes } from './features/quickAnswers/quickAnswers.routes.js';
import { rolesRoutes } from './features/roles/roles.routes.js';
import { settingsRoutes } from './features/settings/settings.routes.js';
import { onboardingRoutes } from './features/onboarding/onboarding.routes.js';
import { usersRoutes } from './features/users/users.routes.js';
import { whatsappsRoutes } from './features/whatsapps/whatsapps.routes.js';
import { historyRoutes } from './features/messages/history.routes.js';
import { messagesRoutes } from './features/messages/messages.routes.js';
import { simulatorRoutes } from './features/simulator/simulator.routes.js';
import { ticketsRoutes } from './features/tickets/tickets.routes.js';
import { dashboardRoutes } from './features/dashboard/dashboard.routes.js';
import { campaignsRoutes } from './features/campaigns/campaigns.routes.js';
import { mediaLibraryRoutes } from './features/campaigns/media-library.routes.js';
import { toolApiRoutes } from './features/campaigns/tool-api.routes.js';
import { groupsRoutes } from './features/groups/groups.routes.js';
import { emailRoutes } from './features/email/email.routes.js';
import { chatbotRoutes } from './features/chatbot/chatbot.routes.js';
import { vonageRoutes } from './features/vonage/vonage.routes.js';
import { instagramRoutes } from './features/instagram/instagram.routes.js';
import { apiTokensRoutes } from './features/api-tokens/api-tokens.routes.js';
import { whaticketApiRoutes } from './features/messages/whaticket-api.routes.js';
import { auditRoutes } from './features/audit/audit.routes.js';
import { csatRoutes } from './features/csat/csat.routes.js';
import { businessHoursRoutes } from './features/business-hours/business-hours.routes.js';
import { notesRoutes } from './features/notes/notes.routes.js';
import { assignmentRoutes } from './features/assignment/assignment.routes.js';
import { reportsRoutes } from './features/reports/reports.routes.js';
import { webhooksRoutes } from './features/webhooks/webhooks.routes.js';

export function apiRoutes(config: Config, ctx: AppContext, sessions: SessionManager): FastifyPluginAsync {
  return async (api) => {
    for (const routes of [
      authRoutes,
      twoFactorRoutes,
      usersRoutes,
      rolesRoutes,
      queuesRoutes,
      labelsRoutes,
      quickAnswersRoutes,
      contactsRoutes,
      settingsRoutes,
      dashboardRoutes,
      reportsRoutes,
      onboardingRoutes,
      emailRoutes,
      chatbotRoutes,
      vonageRoutes,
      apiTokensRoutes,
      auditRoutes,
      businessHoursRoutes,
      notesRoutes,
      assignmentRoutes,
      webhooksRoutes,
    ]) {
      await api.register(routes, { ctx });
    }
    for (const routes of [
      whatsappsRoutes,
      ticketsRoutes,
      messagesRoutes,
      whaticketApiRoutes,
      historyRoutes,
      campaignsRoutes,
      mediaLibraryRoutes,
      toolApiRoutes,
      groupsRoutes,
      instagramRoutes,
      csatRoutes,
      ...(config.simulator ? [simulatorRoutes] : []),
    ]) {
      await api.register(routes, { ctx, sessions });
    }
  };
}
