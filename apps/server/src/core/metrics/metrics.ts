/**
 * The product's Prometheus metrics: one registry per app (several apps may run in one process,
 * as the tests do), made by buildApp and carried on the AppContext. Counters and histograms are
 * moved where the work happens; gauges are read at scrape time from the sources that register
 * with watch*() (sockets, sessions, the outbound queue, the database pool, the jobs' rounds).
 * Every name starts with `zapdesk_`; docs/metrics.md lists each one.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RoundObserver } from '../poll-loop.js';

/** The outbound queue as a scrape sees it. */
export type QueueStats = { queued: number; sending: number; oldestQueuedAt: string | null };
/** The database's connections: PostgreSQL's pool; SQLite has one connection and no pool. */
export type PoolStats = { total: number; idle: number; waiting: number };

/** Outcomes of a campaign's send: out, refused for good, or to go later (the phone away, a pause, a retry). */
export type CampaignSendOutcome = 'sent' | 'failed' | 'deferred';
/** Outcomes of one webhook delivery attempt. */
export type WebhookOutcome = 'delivered' | 'retry' | 'failed';

/** Seconds: from a millisecond to ten seconds (HTTP answers, the inbound pipeline). */
const FAST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: calls to someone else's server, up to the 30 s a delivery may take. */
const REMOTE_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds: a job's round, from a millisecond to a minute. */
const ROUND_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60];

type Source<T> = () => T | Promise<T>;

export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status_code'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly socketConnectionsOpened: Counter<'namespace'>;
  readonly inboundMessages: Counter<'outcome'>;
  readonly inboundDuration: Histogram;
  readonly campaignSends: Counter<'outcome'>;
  readonly webhookDeliveries: Counter<'outcome'>;
  readonly webhookDuration: Histogram<'outcome'>;
  readonly readMemo: Counter<'result'>;
  readonly jobRoundDuration: Histogram<'job'>;
  /** When each named job loop last completed a round (ms), or started when none has yet. */
  readonly #loops = new Map<string, number>();
  /** What the gauges read at scrape time, registered by their owners. */
  readonly #sources: { sockets?: Source<Record<string, number>>; sessions?: Source<Record<string, number>>; outbound?: Source<QueueStats>; pool?: Source<PoolStats> } = {};

  /**
   * `node`: the label every series carries (the cluster mode: each node serves its own).
   * `processMetrics`: Node's own (CPU, memory, event loop, GC), only where metrics are served.
   */
  constructor(options: { node?: string; processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.node) this.registry.setDefaultLabels({ node: options.node });
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'zapdesk_' });
    const sources = this.#sources;
    const loops = this.#loops;
    // The two outbound gauges share one query per scrape.
    let outboundRead: Promise<QueueStats | undefined> | undefined;
    const outbound = (): Promise<QueueStats | undefined> =>
      (outboundRead ??= Promise.resolve(sources.outbound?.()).finally(() => {
        outboundRead = undefined;
      }));

    this.httpRequests = new Counter({ name: 'zapdesk_http_requests_total', help: 'HTTP requests answered, by route pattern and status.', labelNames: ['method', 'route', 'status_code'], registers });
    this.httpDuration = new Histogram({
      name: 'zapdesk_http_request_duration_seconds',
      help: 'Time from receiving an HTTP request to answering it, by route pattern and status.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: FAST_BUCKETS,
      registers,
    });
    this.socketConnectionsOpened = new Counter({ name: 'zapdesk_socket_connections_opened_total', help: 'Realtime sockets that signed in, by namespace.', labelNames: ['namespace'], registers });
    new Gauge({
      name: 'zapdesk_socket_connections',
      help: 'Realtime sockets open on this node, by namespace.',
      labelNames: ['namespace'],
      registers,
      async collect() {
        this.reset();
        for (const [namespace, count] of Object.entries((await sources.sockets?.()) ?? {})) this.set({ namespace }, count);
      },
    });
    new Gauge({
      name: 'zapdesk_sessions',
      help: 'Channel sessions this node runs, by connection status.',
      labelNames: ['status'],
      registers,
      async collect() {
        this.reset();
        for (const [status, count] of Object.entries((await sources.sessions?.()) ?? {})) this.set({ status }, count);
      },
    });
    this.inboundMessages = new Counter({ name: 'zapdesk_inbound_messages_total', help: 'Inbound messages handed to the pipeline, by outcome (stored, failed).', labelNames: ['outcome'], registers });
    this.inboundDuration = new Histogram({
      name: 'zapdesk_inbound_pipeline_duration_seconds',
      help: 'Time from a message reaching its session to its being stored (contact, ticket, message, media).',
      buckets: FAST_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'zapdesk_outbound_queue_depth',
      help: 'Outbound messages stored and not yet sent, by state (queued, sending).',
      labelNames: ['state'],
      registers,
      async collect() {
        const stats = await outbound();
        this.reset();
        if (!stats) return;
        this.set({ state: 'queued' }, stats.queued);
        this.set({ state: 'sending' }, stats.sending);
      },
    });
    new Gauge({
      name: 'zapdesk_outbound_queue_oldest_age_seconds',
      help: 'Age of the oldest queued outbound message (0 when none is queued).',
      registers,
      async collect() {
        const stats = await outbound();
        this.set(stats?.oldestQueuedAt ? Math.max(0, (Date.now() - Date.parse(stats.oldestQueuedAt)) / 1000) : 0);
      },
    });
    this.campaignSends = new Counter({ name: 'zapdesk_campaign_sends_total', help: 'Campaign sends, by outcome (sent, failed, deferred).', labelNames: ['outcome'], registers });
    this.webhookDeliveries = new Counter({
      name: 'zapdesk_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by outcome (delivered, retry, failed).',
      labelNames: ['outcome'],
      registers,
    });
    this.webhookDuration = new Histogram({
      name: 'zapdesk_webhook_delivery_duration_seconds',
      help: "Time a webhook delivery attempt took, up to the receiver's answer.",
      labelNames: ['outcome'],
      buckets: REMOTE_BUCKETS,
      registers,
    });
    this.readMemo = new Counter({ name: 'zapdesk_read_memo_total', help: 'Memoised reads (counts, searches), by result (hit, miss).', labelNames: ['result'], registers });
    this.jobRoundDuration = new Histogram({ name: 'zapdesk_job_round_duration_seconds', help: "How long a job's round took, by job.", labelNames: ['job'], buckets: ROUND_BUCKETS, registers });
    new Gauge({
      name: 'zapdesk_job_seconds_since_last_round',
      help: 'Seconds since each job last completed a round (its lag), by job.',
      labelNames: ['job'],
      registers,
      collect() {
        const now = Date.now();
        for (const [job, at] of loops) this.set({ job }, (now - at) / 1000);
      },
    });
    new Gauge({
      name: 'zapdesk_db_pool_connections',
      help: "The database pool's connections, by state (total, idle, waiting: requests waiting for one). SQLite: one connection.",
      labelNames: ['state'],
      registers,
      async collect() {
        const stats = await sources.pool?.();
        this.reset();
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }

  /** The number of open sockets per namespace, read at scrape time. */
  watchSockets(read: () => Record<string, number>): void {
    this.#sources.sockets = read;
  }

  /** The sessions per status, read at scrape time. */
  watchSessions(read: () => Record<string, number>): void {
    this.#sources.sessions = read;
  }

  /** The outbound queue, read at scrape time (one cheap query). */
  watchOutbound(read: () => Promise<QueueStats>): void {
    this.#sources.outbound = read;
  }

  /** The database pool, read at scrape time. */
  watchPool(read: () => PoolStats): void {
    this.#sources.pool = read;
  }

  /** A named job's rounds (core/poll-loop.ts): their durations and the time since the last one ended. */
  loop(job: string): RoundObserver {
    this.#loops.set(job, Date.now());
    return () => {
      const end = this.jobRoundDuration.startTimer({ job });
      return () => {
        end();
        this.#loops.set(job, Date.now());
      };
    };
  }

  /** One inbound message reached the pipeline: call the returned function with how it ended. */
  inboundStarted(): (outcome: 'stored' | 'failed') => void {
    const started = process.hrtime.bigint();
    return (outcome) => {
      this.inboundMessages.inc({ outcome });
      if (outcome === 'stored') this.inboundDuration.observe(Number(process.hrtime.bigint() - started) / 1e9);
    };
  }

  /** One webhook delivery attempt ended, after `seconds`. */
  webhookDelivery(outcome: WebhookOutcome, seconds: number): void {
    this.webhookDeliveries.inc({ outcome });
    this.webhookDuration.observe({ outcome }, seconds);
  }

  /** The text a scrape gets, and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
