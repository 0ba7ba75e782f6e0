/**
 * Owns the live channel sessions of this node: starts a driver per connection, restores them
 * at start, writes their status to the database and hands inbound events to the pipeline.
 */
import type { AppContext } from '../core/context.js';
import type { Leases } from '../core/cluster/leases.js';
import type { NodeRpc } from '../core/cluster/node-rpc.js';
import { AppError } from '../core/errors.js';
import { nowIso } from '../core/time.js';
import type { ConnectionStore } from './connection-store.js';
import type { ChannelDriver } from './channel.js';
import { defaultDriverFactory, type DriverFactory } from './driver-factory.js';
import { InboundBatches } from './inbound-batches.js';
import type { InboundHandler } from './inbound-handler.js';
import { RemoteDriver, serveSessionCalls } from './remote-driver.js';
import { SendOrder } from './send-order.js';
import { heldSessions, sessionLease, SessionBalancer } from './session-balancer.js';
import { wireSession } from './session-events.js';
import { SessionStatuses } from './session-statuses.js';

/** Run on the node that has just taken a session over from another (see onTakeover). */
export type TakeoverHook = (whatsappId: number) => Promise<void>;

export class SessionManager {
  readonly #sessions = new Map<number, ChannelDriver>();
  readonly #statuses: SessionStatuses;
  readonly #batches: InboundBatches;
  /** Work the drivers' events started (acks, contacts, calls, catch-ups): a clean stop waits for it. */
  readonly #working = new Set<Promise<unknown>>();
  readonly #sendOrder = new SendOrder();
  /** Connections whose previous session ended without a clean stop: read again once connected. */
  readonly #catchUp = new Set<number>();
  #handler: InboundHandler | undefined;
  readonly leases: Leases;
  readonly #rpc: NodeRpc | undefined;
  readonly #takeoverHooks: TakeoverHook[] = [];
  readonly #balancer: SessionBalancer | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly store: ConnectionStore,
    private readonly factory: DriverFactory = defaultDriverFactory,
    /** In the cluster mode: the calls between nodes (ctx.leases says which node runs which session). */
    rpc?: NodeRpc,
  ) {
    this.leases = ctx.leases;
    this.#rpc = rpc;
    this.#statuses = new SessionStatuses(ctx, store);
    this.#balancer = rpc && this.#balance();
    this.#batches = new InboundBatches(
      (whatsappId, batch) => this.#handler?.messages(whatsappId, batch),
      (whatsappId, error) => this.#report(whatsappId, error),
      () => ctx.metrics.inboundStarted(),
    );
    ctx.metrics.watchSessions(() => this.#statuses.countByStatus(this.#sessions.keys()));
    if (rpc) serveSessionCalls(rpc, this);
  }

  /** Whether other nodes share the work (REDIS_URL). */
  get clustered(): boolean {
    return this.#rpc !== undefined;
  }

  /** Whether this node runs the connection's session (always, on a single node). */
  owns(whatsappId: number): boolean {
    return this.leases.holds(sessionLease(whatsappId));
  }

  /** The connections whose sessions this node runs (cluster mode). */
  ownedIds(): number[] {
    return heldSessions(this.leases);
  }

  /** In the cluster mode: `hook` runs each time this node takes a session over, once it started. */
  onTakeover(hook: TakeoverHook): void {
    this.#takeoverHooks.push(hook);
  }

  /**
   * Lets the node running a connection's session do `method` for the others (forward): a
   * send stored on any node goes out from the one that runs the session.
   */
  handle(method: string, handler: (whatsappId: number, args: unknown) => Promise<unknown>): void {
    this.#rpc?.handle(`job.${method}`, async (args) => {
      const { whatsappId, payload } = args as { whatsappId: number; payload: unknown };
      if (!this.owns(whatsappId)) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
      return handler(whatsappId, payload);
    });
  }

  /**
   * Runs `method` (see handle) on the node that runs the session, and answers what it answered;
   * undefined when no node runs it now (the work stays stored for the node that takes it).
   */
  async forward(whatsappId: number, method: string, payload: unknown): Promise<unknown> {
    const holder = await this.#otherHolder(whatsappId);
    if (!holder || !this.#rpc) return undefined;
    return this.#rpc.call(holder, `job.${method}`, { whatsappId, payload });
  }

  /** The node other than this one that runs the session now, in the cluster mode. */
  async #otherHolder(whatsappId: number): Promise<string | undefined> {
    if (!this.#rpc) return undefined;
    const holder = await this.leases.holder(sessionLease(whatsappId));
    return holder && holder !== this.leases.nodeId ? holder : undefined;
  }

  /**
   * The session of a connection wherever it runs: this node's driver, or in the cluster mode a
   * stand-in that asks the node running it; undefined when none runs it.
   */
  async use(whatsappId: number): Promise<ChannelDriver | undefined> {
    const local = this.driver(whatsappId);
    if (local || !this.#rpc) return local;
    const holder = await this.#otherHolder(whatsappId);
    if (!holder) return undefined;
    const info = (await this.#rpc.call(holder, 'session.info', { whatsappId }).catch(() => undefined)) as { connected: boolean; messageIds: string[] } | undefined;
    return info && new RemoteDriver(this.#rpc, holder, whatsappId, info);
  }

  /** Like use, or ERR_WAPP_NOT_INITIALIZED. */
  async require(whatsappId: number): Promise<ChannelDriver> {
    const driver = await this.use(whatsappId);
    if (!driver) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return driver;
  }

  setInboundHandler(handler: InboundHandler): void {
    this.#handler = handler;
  }

  /** The driver of a session this node runs (see use for a session that may run elsewhere). */
  driver(whatsappId: number): ChannelDriver | undefined {
    return this.owns(whatsappId) ? this.#sessions.get(whatsappId) : undefined;
  }

  /** The live driver of a session this node runs, or ERR_WAPP_NOT_INITIALIZED. */
  requireDriver(whatsappId: number): ChannelDriver {
    const driver = this.driver(whatsappId);
    if (!driver) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return driver;
  }

  /**
   * Starts the sessions this node is to run: on a single node every connection's; in the
   * cluster mode those no live node holds, and from then on, every lease period, it renews its
   * own and takes over those whose node stopped renewing (died).
   */
  async restoreAll(): Promise<void> {
    if (this.#balancer) return this.#balancer.start();
    for (const id of await this.store.ids()) await this.#startOrReport(id);
  }

  async #startOrReport(whatsappId: number): Promise<void> {
    try {
      await this.start(whatsappId);
    } catch (error) {
      // One connection that cannot start (its channel turned off, say) must not stop the others.
      this.#report(whatsappId, error);
      await this.#statuses.save(whatsappId, { status: 'DISCONNECTED', qrcode: '' });
    }
  }

  readonly #report = (whatsappId: number, error: unknown) => this.ctx.events.publish('channel.error', { whatsappId, error });

  /** The cluster mode's sharing of the sessions with the other nodes. */
  #balance(): SessionBalancer {
    const failed = this.#report;
    return new SessionBalancer(this.leases, {
      ids: () => this.store.ids(),
      running: (whatsappId) => this.#sessions.has(whatsappId),
      start: (whatsappId) => this.#startOrReport(whatsappId),
      stop: (whatsappId) => this.#stopLocal(whatsappId),
      fence: (whatsappId) => this.#fence(whatsappId),
      tookOver: async (whatsappId) => {
        for (const hook of this.#takeoverHooks) await hook(whatsappId).catch((error: unknown) => failed(whatsappId, error));
      },
      failed,
    });
  }

  /**
   * This node lost the session's lease (it was paused, or cut off from the database): the
   * session stops here before another node may start it. Nothing is written: the database
   * belongs to the new holder now.
   */
  async #fence(whatsappId: number): Promise<void> {
    this.leases.drop(sessionLease(whatsappId));
    const driver = this.#sessions.get(whatsappId);
    this.#sessions.delete(whatsappId);
    this.#catchUp.delete(whatsappId);
    if (driver) await driver.stop().catch((error: unknown) => this.#report(whatsappId, error));
  }

  /**
   * (Re)starts the session: here on a single node, or when this node holds or can take its
   * lease; otherwise on the node that runs it.
   */
  async start(whatsappId: number): Promise<void> {
    if (this.clustered && !(await this.leases.acquire(sessionLease(whatsappId)))) {
      const holder = await this.#otherHolder(whatsappId);
      if (!holder || !this.#rpc) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
      await this.#rpc.call(holder, 'session.start', { whatsappId });
      return;
    }
    this.#balancer?.watch(whatsappId);
    await this.#stopLocal(whatsappId);
    const channel = await this.store.channelOf(whatsappId);
    if (!channel) throw new AppError('ERR_NO_WAPP_FOUND');
    const driver = this.factory({ ctx: this.ctx, whatsappId, channel, auth: this.store.authStore(whatsappId) });
    // A session still marked open was not closed by this server: it was killed or crashed, and
    // WhatsApp may have handed over messages it acknowledged before they were stored.
    if (await this.store.sessionOpenSince(whatsappId)) this.#catchUp.add(whatsappId);
    await this.store.setSessionOpenSince(whatsappId, nowIso());
    this.#sessions.set(whatsappId, driver);
    wireSession({
      ctx: this.ctx,
      whatsappId,
      driver,
      isCurrent: () => this.#sessions.get(whatsappId) === driver && this.owns(whatsappId),
      statuses: this.#statuses,
      batches: this.#batches,
      handler: () => this.#handler,
      takeCatchUp: () => this.#catchUp.delete(whatsappId),
      track: (work) => {
        this.#working.add(work);
        void work.finally(() => this.#working.delete(work));
      },
    });
    await driver.start();
    await this.settled(whatsappId);
  }

  /** Resolves once every status change emitted so far is stored. */
  settled(whatsappId: number): Promise<void> {
    return this.#statuses.settled(whatsappId);
  }

  /** Closes this node's session of the connection, cleanly (its credentials kept). */
  stop(whatsappId: number): Promise<void> {
    return this.#stopLocal(whatsappId);
  }

  async #stopLocal(whatsappId: number): Promise<void> {
    const driver = this.#sessions.get(whatsappId);
    if (!driver) return;
    this.#sessions.delete(whatsappId);
    await driver.stop();
    await this.store.setSessionOpenSince(whatsappId, null);
  }

  /** Unlinks the device and forgets its credentials, on the node that runs the session. */
  async logout(whatsappId: number): Promise<void> {
    if (this.clustered && !(await this.leases.acquire(sessionLease(whatsappId)))) {
      const holder = await this.#otherHolder(whatsappId);
      if (holder && this.#rpc) {
        await this.#rpc.call(holder, 'session.logout', { whatsappId });
        return;
      }
      throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    }
    const driver = this.#sessions.get(whatsappId);
    this.#sessions.delete(whatsappId);
    if (driver) await driver.logout();
    // An Instagram connection's configuration is not a session: it stays until the connection goes.
    else if ((await this.store.channelOf(whatsappId)) !== 'instagram') await this.store.authStore(whatsappId).clear();
    await this.store.setSessionOpenSince(whatsappId, null);
    this.#catchUp.delete(whatsappId);
    await this.settled(whatsappId);
    await this.#statuses.save(whatsappId, { status: 'DISCONNECTED', qrcode: '' });
  }

  /**
   * A clean shutdown: every session stops, what they handed on is written (the database closes
   * after this), and in the cluster mode their leases are given up for another node to take at once.
   */
  async closeAll(): Promise<void> {
    await this.#balancer?.stop();
    for (const id of [...this.#sessions.keys()]) await this.#stopLocal(id);
    while (this.#working.size > 0) await Promise.allSettled([...this.#working]);
    await this.#batches.settled();
    await this.#statuses.allSettled();
    if (this.clustered) for (const name of this.leases.names()) await this.leases.release(name).catch(() => undefined);
  }

  /**
   * Runs the connection's sends one at a time, in the order asked: a burst of replies reaches
   * the chat in the order the agent wrote them.
   */
  exclusive<T>(whatsappId: number, work: () => Promise<T>): Promise<T> {
    return this.#sendOrder.run(whatsappId, work);
  }
}
