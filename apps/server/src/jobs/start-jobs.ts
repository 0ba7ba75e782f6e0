/**
 * Starts the server's background work in its order, and stops it: the webhook sender first (the
 * sessions' status changes are webhook events too), then the sessions on a single node, the
 * sweeps and the senders, and the sessions of a cluster node last. A single node starts its
 * sessions before the jobs, which settle what a stop left half-done with them; a cluster node
 * starts the jobs first, which settle it as each session is taken over.
 */
import type { SessionManager } from '../channels/session-manager.js';
import type { AppContext } from '../core/context.js';
import { startDemo } from '../demo/demo.js';
import { startAutoAssignment } from '../features/assignment/assignment.job.js';
import { endMentionsOnResolve } from '../features/notes/notes.service.js';
import { scheduleAuditRetention } from './audit-retention.job.js';
import { scheduleAutoClose } from './auto-close.job.js';
import { startCampaignSender } from './campaigns.job.js';
import { startChatbotWorker } from './chatbot.job.js';
import { startMailSender } from './mail.job.js';
import { startOutboundDispatcher } from './outbound.job.js';
import { startWebhookSender } from './webhooks.job.js';

/** `stopTimers`: the sweeps and the demo, at once; `stop`: the senders, each ending its current step. */
export type RunningJobs = { stopTimers: () => void; stop: () => Promise<void> };

export async function startJobs(ctx: AppContext, sessions: SessionManager): Promise<RunningJobs> {
  const { log } = ctx;
  const failed = (what: string) => (error: unknown) => log.error({ err: error }, what);
  const stopWebhooks = await startWebhookSender(ctx, failed('webhook sender failed'));
  if (!sessions.clustered) await sessions.restoreAll();
  const stopDemo = ctx.config.demo ? await startDemo(ctx, sessions) : () => undefined;
  const stopAutoClose = scheduleAutoClose(ctx, failed('auto-close sweep failed'));
  const stopAuditRetention = scheduleAuditRetention(ctx, failed('audit retention sweep failed'));
  const stopOutbound = await startOutboundDispatcher(ctx, sessions, failed('outbound dispatch failed'));
  const stopCampaigns = await startCampaignSender(ctx, sessions, failed('campaign sender failed'));
  const stopMail = await startMailSender(ctx, failed('mail sender failed'));
  const stopChatbot = await startChatbotWorker(ctx, sessions, failed('chatbot failed'));
  const stopAssignment = startAutoAssignment(ctx, failed('auto-assignment failed'));
  if (sessions.clustered) await sessions.restoreAll();
  ctx.events.subscribe('chatbot.error', ({ ticketId, error }) => log.warn({ ticketId, error }, 'chatbot error'));
  endMentionsOnResolve(ctx, failed('ending mentions failed'));
  return {
    stopTimers: () => {
      stopDemo();
      stopAutoClose();
      stopAuditRetention();
    },
    stop: async () => {
      await Promise.all([stopOutbound(), stopCampaigns(), stopMail(), stopChatbot(), stopAssignment(), stopWebhooks()]);
    },
  };
}
