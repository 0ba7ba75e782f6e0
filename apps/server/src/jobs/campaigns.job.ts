/**
 * The campaign sender. Each lane (a connection, or the telephony provider for SMS and calls)
 * sends one campaign message at a time, waiting between two sends a uniformly random pace
 * between the min and max seconds of the campaign whose message goes next (several campaigns
 * on one lane share its pace). Scheduled campaigns start on time, also after a restart; a
 * disconnected phone pauses its campaigns until it is back.
 */
import type { SessionManager } from '../channels/session-manager.js';
import type { AppContext } from '../core/context.js';
import { pollLoop } from '../core/poll-loop.js';
import { nowIso } from '../core/time.js';
import { recoverInDoubt, sendToRecipient } from '../features/campaigns/campaign-send.js';
import { completeIfDone, publishCampaign } from '../features/campaigns/campaigns.service.js';
import * as campaigns from '../features/campaigns/campaigns.repository.js';
import * as recipients from '../features/campaigns/recipients.repository.js';
import type { Lane } from '../features/campaigns/recipients.repository.js';
import { sendPhoneRecipient } from '../features/vonage/phone-send.js';
import { findWhatsappById } from '../features/whatsapps/whatsapps.repository.js';

/** How often due scheduled campaigns and idle connections are looked at. */
export const CAMPAIGN_POLL_MS = 1_000;
/** The lease of the telephony sender (SMS and calls: no session), which one node runs at a time. */
export const TELEPHONY_LANE = 'job:telephony';
/** Progress events of a campaign at most this often while it sends (state changes go out at once). */
export const PROGRESS_EVERY_MS = 500;
/** A scheduled campaign that starts later than this after its time says so in its history. */
export const LATE_START_MS = 60_000;
/** The pause reason while the phone is away: the error a send would get. */
export const DISCONNECTED_REASON = 'ERR_WAPP_NOT_INITIALIZED';
/** The note of a campaign whose time passed while the server was down. */
export const STARTED_LATE_NOTE = 'startedLate';

type ConnectionState = { running: boolean; lastSentAt: number | undefined; delayMs: number | undefined; wake: (() => void) | undefined };

export function paceMs(minDelay: number, maxDelay: number, random = Math.random): number {
  return Math.round((minDelay + random() * (maxDelay - minDelay)) * 1000);
}

export async function startCampaignSender(ctx: AppContext, sessions: SessionManager, onError: (error: unknown) => void): Promise<() => Promise<void>> {
  const connections = new Map<Lane, ConnectionState>();
  const lastProgress = new Map<number, number>();
  const loops = new Set<Promise<void>>();
  let stopped = false;

  const stateOf = (whatsappId: Lane): ConnectionState => {
    let state = connections.get(whatsappId);
    if (!state) {
      state = { running: false, lastSentAt: undefined, delayMs: undefined, wake: undefined };
      connections.set(whatsappId, state);
    }
    return state;
  };

  /** Waits `ms`, or less when woken (a stop, a new campaign). */
  const sleep = (state: ConnectionState, ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        state.wake = undefined;
        resolve();
      }
      state.wake = done;
    });

  const trailing = new Map<number, NodeJS.Timeout>();
  /** Publishes a campaign's state; while it sends fast, at most every PROGRESS_EVERY_MS, and the last step always. */
  const progress = async (campaignId: number, force: boolean): Promise<void> => {
    const since = Date.now() - (lastProgress.get(campaignId) ?? 0);
    if (!force && since < PROGRESS_EVERY_MS) {
      if (!trailing.has(campaignId)) {
        const timer = setTimeout(() => {
          trailing.delete(campaignId);
          handle(() => progress(campaignId, true));
        }, PROGRESS_EVERY_MS - since);
        timer.unref();
        trailing.set(campaignId, timer);
      }
      return;
    }
    clearTimeout(trailing.get(campaignId));
    trailing.delete(campaignId);
    lastProgress.set(campaignId, Date.now());
    await publishCampaign(ctx, campaignId);
  };

  const pauseConnection = async (whatsappId: number) => {
    for (const id of await campaigns.campaignIdsOfConnection(ctx.db, whatsappId, 'running')) {
      const now = nowIso();
      if (await campaigns.updateCampaign(ctx.db, id, { status: 'paused', pauseReason: DISCONNECTED_REASON }, { from: ['running'], now })) await progress(id, true);
    }
  };

  const resumeConnection = async (whatsappId: number) => {
    for (const id of await campaigns.campaignIdsOfConnection(ctx.db, whatsappId, 'paused', DISCONNECTED_REASON)) {
      const now = nowIso();
      if (await campaigns.updateCampaign(ctx.db, id, { status: 'running', pauseReason: null }, { from: ['paused'], now })) await progress(id, true);
    }
    kick(whatsappId);
  };

  /** A campaign that cannot go on until someone acts (the provider's credentials) waits, paused. */
  const pauseCampaign = async (campaignId: number, reason: string) => {
    const now = nowIso();
    if (await campaigns.updateCampaign(ctx.db, campaignId, { status: 'paused', pauseReason: reason }, { from: ['running'], now })) await progress(campaignId, true);
  };

  /** Sends a lane's queued recipients until none is left; one loop per lane. */
  const run = async (whatsappId: Lane, state: ConnectionState) => {
    const connection = whatsappId === null ? undefined : await findWhatsappById(ctx.db, whatsappId);
    while (!stopped) {
      // Only the node that runs the connection's session (or holds the telephony lane) sends,
      // and decides that the connection is away.
      if (whatsappId === null ? !ctx.leases.holds(TELEPHONY_LANE) : !sessions.owns(whatsappId)) return;
      const next = await recipients.nextQueuedRecipient(ctx.db, whatsappId);
      if (!next) return;
      const campaign = await campaigns.findCampaign(ctx.db, next.campaignId);
      if (!campaign) return;
      const driver = whatsappId === null ? undefined : sessions.driver(whatsappId);
      if (whatsappId !== null && !driver?.connected) {
        await pauseConnection(whatsappId);
        return;
      }
      if (state.lastSentAt !== undefined) {
        state.delayMs ??= paceMs(campaign.minDelay, campaign.maxDelay);
        const wait = state.lastSentAt + state.delayMs - Date.now();
        if (wait > 0) {
          await sleep(state, wait);
          // Whatever comes next after the wait goes at once: the pace is kept.
          continue;
        }
      }
      if (whatsappId === null || !driver) {
        const outcome = await sendPhoneRecipient(ctx, campaign, next);
        if (outcome === undefined) continue; // a pause or cancel came first: nothing was sent
        ctx.metrics.campaignSends.inc({ outcome: outcome.status === 'sent' || outcome.status === 'failed' ? outcome.status : 'deferred' });
        if (outcome.status === 'paused') {
          await pauseCampaign(campaign.id, outcome.error);
          continue;
        }
      } else {
        const outcome = await sessions.exclusive(whatsappId, () => sendToRecipient(ctx, driver, campaign, next, connection?.name ?? ''));
        if (outcome === undefined) continue; // a pause or cancel came first: nothing was sent
        ctx.metrics.campaignSends.inc({ outcome: outcome.status === 'sent' ? 'sent' : outcome.passing ? 'deferred' : 'failed' });
        if (outcome.status === 'notSent' && outcome.passing) {
          await pauseConnection(whatsappId);
          return;
        }
      }
      state.lastSentAt = Date.now();
      state.delayMs = undefined;
      // SQLite and the simulated phone answer synchronously: at 0–0 s nothing else would run
      // until the campaign ends. Let requests and other work in between two sends.
      await new Promise((resolve) => setImmediate(resolve));
      const finished = await completeIfDone(ctx, campaign.id);
      await progress(campaign.id, finished);
    }
  };

  function kick(whatsappId: Lane): void {
    if (stopped) return;
    const state = stateOf(whatsappId);
    if (state.running) {
      // A running loop waiting out the pace looks again when the wait ends; nothing to do.
      return;
    }
    state.running = true;
    const loop = run(whatsappId, state)
      .catch(onError)
      .finally(() => {
        state.running = false;
        loops.delete(loop);
      });
    loops.add(loop);
  }

  const startDue = async () => {
    const now = Date.now();
    for (const campaign of await campaigns.dueScheduledCampaigns(ctx.db, new Date(now).toISOString())) {
      const late = campaign.scheduledAt !== null && now - Date.parse(campaign.scheduledAt) > LATE_START_MS;
      const at = nowIso();
      if (await campaigns.updateCampaign(ctx.db, campaign.id, { status: 'running', startedAt: at, ...(late ? { note: STARTED_LATE_NOTE } : {}) }, { from: ['scheduled'], now: at })) {
        await progress(campaign.id, true);
      }
    }
    for (const whatsappId of await campaigns.connectionsWithRunningCampaigns(ctx.db)) {
      if (whatsappId === null) {
        const lane = await ctx.leases.keep(TELEPHONY_LANE);
        // Taken over from a node that died: what it left in doubt is settled first.
        if (lane === 'new' && sessions.clustered) await recover(null);
        if (lane) kick(null);
      } else if (sessions.driver(whatsappId)) kick(whatsappId);
    }
  };

  const recover = async (whatsappId: Lane) => {
    for (const id of await recoverInDoubt(ctx, whatsappId, whatsappId === null ? undefined : sessions.driver(whatsappId))) {
      await completeIfDone(ctx, id);
      await progress(id, true);
    }
  };

  // Sends a crash left in doubt are settled before anything new goes out: on a single node at
  // start; in the cluster mode for each connection as a node takes it over (the others' sends
  // under way are not in doubt).
  let unknownLeft = await recipients.hasUnknownRecipients(ctx.db);
  if (sessions.clustered) {
    sessions.onTakeover(async (whatsappId) => {
      unknownLeft = true;
      await recover(whatsappId);
      kick(whatsappId);
    });
  } else {
    for (const whatsappId of await recipients.connectionsWithRecipientsInDoubt(ctx.db)) {
      unknownLeft = true;
      await recover(whatsappId);
    }
  }

  /** Work started by events, awaited on stop so nothing runs on a closed database. */
  const handling = new Set<Promise<void>>();
  const handle = (work: () => Promise<void>) => {
    if (stopped) return;
    const running: Promise<void> = work()
      .catch(onError)
      .finally(() => handling.delete(running));
    handling.add(running);
  };

  const unsubscribe = [
    // A bulk send started on any node: the node running its phone starts at once.
    ctx.events.subscribeCluster('campaign.saved', ({ campaign }) => {
      if (campaign.status === 'running') kick(campaign.whatsappId);
    }),
    ctx.events.subscribe('whatsapp.session', ({ id, status }) => {
      if (status === 'OPENING') return;
      handle(() => (status === 'CONNECTED' ? resumeConnection(id) : pauseConnection(id)));
    }),
    // An ack for a send in doubt says it went out after all. Acks are many: only looked at while
    // some send is in doubt.
    ctx.events.subscribe('channel.ack', ({ providerId }) => {
      if (!unknownLeft) return;
      handle(async () => {
        const campaignId = await recipients.confirmUnknown(ctx.db, providerId, nowIso());
        if (campaignId) await progress(campaignId, true);
      });
    }),
  ];

  const polling = pollLoop(startDue, CAMPAIGN_POLL_MS, onError, 'campaigns', ctx.metrics.loop('campaigns'));

  return async () => {
    stopped = true;
    for (const off of unsubscribe) off();
    for (const timer of trailing.values()) clearTimeout(timer);
    for (const state of connections.values()) state.wake?.();
    await polling.stop();
    await Promise.all([...loops, ...handling]);
  };
}
