/**
 * The mail sender: stored mails go out one at a time. A mail the SMTP server turns away for now
 * (or that cannot reach it) waits MAIL_RETRY_SECONDS, then twice as long each time, up to an
 * hour; after MAX_ATTEMPTS, or at once when the refusal is final, it is failed and shown with
 * its error to admins, who can send it again.
 */
import type { AppContext } from '../core/context.js';
import { inJobRound } from '../core/log-context.js';
import { nowIso } from '../core/time.js';
import { deliver, readEmailSettings, smtpErrorText } from '../features/email/email.service.js';
import * as repo from '../features/email/email.repository.js';

export const MAIL_POLL_MS = 2_000;
export const MAIL_LEASE = 'job:mail';
export const MAX_ATTEMPTS = 8;
const MAX_WAIT_MS = 60 * 60_000;

/**
 * A refusal that waiting will not change: the SMTP server answered 5xx (no such mailbox, message
 * refused), except 535 (the password, which an admin may fix).
 */
export function isPermanent(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'responseCode' in error ? Number(error.responseCode) : NaN;
  return code >= 500 && code < 600 && code !== 535;
}

export function retryDelayMs(baseSeconds: number, attempts: number): number {
  return Math.min(MAX_WAIT_MS, baseSeconds * 1000 * 2 ** Math.max(0, attempts - 1));
}

export async function startMailSender(ctx: AppContext, onError: (error: unknown) => void): Promise<() => Promise<void>> {
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  const sendDue = async () => {
    // One node sends the mails at a time. The one that starts sending (this server at start, or
    // in the cluster mode a node taking over from one that died) first queues again the mail
    // that was being sent (at least once: the SMTP server may have it).
    const lease = await ctx.leases.keep(MAIL_LEASE);
    if (!lease) return;
    if (lease === 'new') await repo.requeueSending(ctx.db, nowIso());
    for (;;) {
      if (stopped || !ctx.leases.holds(MAIL_LEASE)) return;
      const ids = await repo.dueEmailIds(ctx.db, nowIso(), 10);
      if (ids.length === 0) return;
      const settings = await readEmailSettings(ctx);
      for (const id of ids) {
        if (stopped) return;
        if (!(await repo.claimEmail(ctx.db, id, nowIso()))) continue;
        const mail = await repo.findEmail(ctx.db, id);
        if (!mail) continue;
        try {
          await deliver(ctx, settings, mail);
          const now = nowIso();
          await repo.updateEmail(ctx.db, id, { status: 'sent', sentAt: now, lastError: null, attempts: mail.attempts + 1, nextAttemptAt: null }, { from: ['sending'], now });
          ctx.log.debug({ emailId: id, attempts: mail.attempts + 1 }, 'mail sent');
        } catch (error) {
          const attempts = mail.attempts + 1;
          const now = nowIso();
          const failed = attempts >= MAX_ATTEMPTS || isPermanent(error);
          const next = failed ? null : new Date(Date.now() + retryDelayMs(ctx.config.mailRetrySeconds, attempts)).toISOString();
          await repo.updateEmail(ctx.db, id, { status: failed ? 'failed' : 'queued', attempts, lastError: smtpErrorText(error), nextAttemptAt: next }, { from: ['sending'], now });
          // Given up: an admin sees it and may send it again. A try that waits for the next is handled.
          if (failed) ctx.log.error({ emailId: id, attempts, error: smtpErrorText(error) }, 'mail failed for good');
          else ctx.log.warn({ emailId: id, attempts, nextAttemptAt: next, error: smtpErrorText(error) }, 'mail not sent, tried again later');
        }
      }
    }
  };

  /** One pass at a time; a kick during a pass makes another pass right after it. */
  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = inJobRound('mail', () => sendDue().catch(onError)).finally(() => {
      running = undefined;
      if (again) {
        again = false;
        kick();
      }
    });
  };

  // A mail queued on any node: the node that sends mails looks at once.
  const unsubscribe = ctx.events.subscribeCluster('email.queued', () => kick());
  const timer = setInterval(kick, MAIL_POLL_MS);
  timer.unref();
  kick();

  return async () => {
    stopped = true;
    clearInterval(timer);
    unsubscribe();
    await running;
  };
}
