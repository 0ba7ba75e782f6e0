/**
 * Owns the live channel sessions of this node: starts a driver per connection, restores them
 * at start, writes their status to the database and hands inbound events to the pipeline.
 */
import { CONNECTION_STATUSES, type ConnectionStatus } from '@zapdesk/shared/domain';
import type { AppContext } from '../core/context.js';
import type { Leases } from '../core/cluster/leases.js';
import type { NodeRpc } from '../core/cluster/node-rpc.js';
import { AppError } from '../core/errors.js';
import { nowIso } from '../core/time.js';
import type { ConnectionStore } from './connection-store.js';
import type { ChannelDriver, InboundMessage } from './channel.js';
import { defaultDriverFactory, type DriverFactory } from './driver-factory.js';
import { InboundBatches } from './inbound-batches.js';
import type { InboundHandler } from './inbound-handler.js';
import { RemoteDriver, SESSION_CALLS } from './remote-driver.js';

export { defaultDriverFactory, type DriverFactory } from './driver-factory.js';
export type { InboundHandler } from './inbound-handler.js';

/** How many messages per chat a catch-up after an unclean stop reads at most. */
export const CATCH_UP_MESSAGES_MAX = 50;

/** The lease of a connection's session (see core/cluster/leases.ts). */
export function sessionLease(whatsappId: number): string {
  return `session:${whatsappId}`;
}

/** Each live node holds a lease of its own, under this prefix: how the nodes count each other. */
const NODE_LEASE_PREFIX = 'node:';

/** Run on the node that has just taken a session over from another (see onTakeover). */
export type TakeoverHook = (whatsappId: number) => Promise<void>;

export class SessionManager {
  readonly #sessions = new Map<number, ChannelDriver>();
  readonly #retries = new Map<number, number>();
  /** Status writes of each connection, chained so they land in the order the driver emitted them. */
  readonly #writes = new Map<number, Promise<void>>();
  readonly #batches: InboundBatches;
  /** Sends of each connection, one after the other (see exclusive). */
  readonly #sending = new Map<number, Promise<unknown>>();
  /** Connections whose previous session ended without a clean stop: read again once connected. */
  readonly #catchUp = new Set<number>();
  /** The last status each session of this node emitted (the metrics' sessions by status). */
  readonly #statuses = new Map<number, ConnectionStatus>();
  #handler: InboundHandler | undefined;
  readonly leases: Leases;
  readonly #rpc: NodeRpc | undefined;
  readonly #takeoverHooks: TakeoverHook[] = [];
  #balancing: { timer: NodeJS.Timeout; round: Promise<void> } | undefined;
  #closed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly store: ConnectionStore,
    private readonly factory: DriverFactory = defaultDriverFactory,
    /** In the cluster mode: the calls between nodes (ctx.leases says which node runs which session). */
    rpc?: NodeRpc,
  ) {
    this.leases = ctx.leases;
    this.#rpc = rpc;
    this.#batches = new InboundBatches(
      (whatsappId, batch) => this.#handler?.messages(whatsappId, batch),
      (whatsappId, error) => this.ctx.events.publish('channel.error', { whatsappId, error }),
      () => ctx.metrics.inboundStarted(),
    );
    ctx.metrics.watchSessions(() => this.#countByStatus());
    this.#rpc?.handle('session.start', (args) => this.start(idOf(args)));
    this.#rpc?.handle('session.logout', (args) => this.logout(idOf(args)));
    this.#rpc?.handle('session.info', async (args) => {
      const driver = this.requireDriver(idOf(args));
      return { connected: driver.connected, messageIds: Array.from({ length: 10 }, () => driver.newMessageId()) };
    });
    this.#rpc?.handle('session.call', async (args) => {
      const { whatsappId, method, params } = args as { whatsappId: number; method: string; params: unknown[] };
      const driver = this.requireDriver(whatsappId) as unknown as Record<string, unknown>;
      if (!SESSION_CALLS.has(method) || !(method in driver)) throw new AppError('ERR_VALIDATION', { message: `${method} cannot be called on a session.` });
      const member = driver[method];
      const value: unknown = typeof member === 'function' ? await (member as (...a: unknown[]) => unknown).apply(driver, params) : member;
      await this.settled(whatsappId);
      return value;
    });
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
    return this.leases
      .names()
      .filter((name) => name.startsWith('session:') && this.leases.holds(name))
      .map((name) => Number(name.slice('session:'.length)));
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
    if (!this.clustered) {
      for (const id of await this.store.ids()) await this.#startOrReport(id);
      return;
    }
    await this.#balance();
    const tick = () => {
      if (this.#closed) return;
      const round = this.#balance()
        .catch((error: unknown) => this.ctx.events.publish('channel.error', { whatsappId: 0, error }))
        .finally(() => {
          if (this.#balancing) this.#balancing.timer = setTimeout(tick, this.leases.renewMs).unref();
        });
      if (this.#balancing) this.#balancing.round = round;
    };
    this.#balancing = { timer: setTimeout(tick, this.leases.renewMs).unref(), round: Promise.resolve() };
  }

  async #startOrReport(whatsappId: number): Promise<void> {
    try {
      await this.start(whatsappId);
    } catch (error) {
      // One connection that cannot start (its channel turned off, say) must not stop the others.
      this.ctx.events.publish('channel.error', { whatsappId, error });
      await this.#saveState(whatsappId, { status: 'DISCONNECTED', qrcode: '' });
    }
  }

  /**
   * One round of the cluster mode: say this node is alive, renew what it holds, stop what it
   * lost, and take sessions nobody holds, up to its share (the sessions divided by the live
   * nodes), so that a dead node's phones are spread over the others.
   */
  async #balance(): Promise<void> {
    await this.leases.keep(NODE_LEASE_PREFIX + this.leases.nodeId);
    const ids = new Set(await this.store.ids());
    for (const name of this.leases.names()) {
      if (!name.startsWith('session:')) continue;
      const id = Number(name.slice('session:'.length));
      if (!ids.has(id)) {
        // The connection was deleted: its lease goes with it.
        await this.#stopLocal(id);
        await this.leases.release(name);
      } else if (!(await this.leases.renew(name))) await this.#fence(id);
    }
    const share = Math.ceil(ids.size / Math.max(1, await this.leases.countHeld(NODE_LEASE_PREFIX)));
    for (const id of ids) {
      if (this.#closed || this.owns(id)) continue;
      if (this.ownedIds().length >= share) break;
      if (!(await this.leases.acquire(sessionLease(id)))) continue;
      this.#watchLease(id);
      await this.#startOrReport(id);
      for (const hook of this.#takeoverHooks) await hook(id).catch((error: unknown) => this.ctx.events.publish('channel.error', { whatsappId: id, error }));
    }
  }

  /** Stops the session the moment its lease runs out without a renewal (fencing). */
  #watchLease(whatsappId: number): void {
    const check = () => {
      if (this.#closed || !this.#sessions.has(whatsappId)) return;
      if (!this.owns(whatsappId)) return void this.#fence(whatsappId);
      setTimeout(check, 250).unref();
    };
    setTimeout(check, 250).unref();
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
    if (driver) await driver.stop().catch((error: unknown) => this.ctx.events.publish('channel.error', { whatsappId, error }));
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
    if (this.clustered) this.#watchLease(whatsappId);
    await this.#stopLocal(whatsappId);
    const channel = await this.store.channelOf(whatsappId);
    if (!channel) throw new AppError('ERR_NO_WAPP_FOUND');
    const driver = this.factory({ ctx: this.ctx, whatsappId, channel, auth: this.store.authStore(whatsappId) });
    // A session still marked open was not closed by this server: it was killed or crashed, and
    // WhatsApp may have handed over messages it acknowledged before they were stored.
    if (await this.store.sessionOpenSince(whatsappId)) this.#catchUp.add(whatsappId);
    await this.store.setSessionOpenSince(whatsappId, nowIso());
    this.#sessions.set(whatsappId, driver);
    this.#wire(whatsappId, driver);
    await driver.start();
    await this.settled(whatsappId);
  }

  /** Resolves once every status change emitted so far is stored. */
  async settled(whatsappId: number): Promise<void> {
    await this.#writes.get(whatsappId);
  }

  #enqueue(whatsappId: number, state: { status: ConnectionStatus; qrcode?: string }): void {
    this.#statuses.set(whatsappId, state.status);
    const previous = this.#writes.get(whatsappId) ?? Promise.resolve();
    const next = previous.then(() => this.#saveState(whatsappId, state)).catch((error: unknown) => this.ctx.events.publish('channel.error', { whatsappId, error }));
    this.#writes.set(whatsappId, next);
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
    await this.#saveState(whatsappId, { status: 'DISCONNECTED', qrcode: '' });
  }

  /** A clean shutdown: every session stops, and in the cluster mode its lease is given up for another node to take at once. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    if (this.#balancing) {
      clearTimeout(this.#balancing.timer);
      await this.#balancing.round;
    }
    for (const id of [...this.#sessions.keys()]) await this.#stopLocal(id);
    if (this.clustered) for (const name of this.leases.names()) await this.leases.release(name).catch(() => undefined);
  }

  #wire(whatsappId: number, driver: ChannelDriver): void {
    const log = (error: unknown) => this.ctx.events.publish('channel.error', { whatsappId, error });
    // Events of a session replaced, or of one whose lease ran out, are not this node's to handle.
    const isCurrent = () => this.#sessions.get(whatsappId) === driver && this.owns(whatsappId);
    driver.on('qr', (qrcode) => {
      if (isCurrent()) this.#enqueue(whatsappId, { status: qrcode ? 'qrcode' : 'OPENING', qrcode });
    });
    driver.on('status', (status, info) => {
      if (!isCurrent()) return;
      if (status === 'CONNECTED') this.#retries.set(whatsappId, 0);
      if (status === 'CONNECTED' && this.#catchUp.delete(whatsappId)) void this.#readAgain(whatsappId, driver).catch(log);
      if (status === 'DISCONNECTED' && !info?.loggedOut) this.#retries.set(whatsappId, info?.retries ?? (this.#retries.get(whatsappId) ?? 0) + 1);
      this.#enqueue(whatsappId, { status, ...(status === 'qrcode' ? {} : { qrcode: '' }) });
    });
    driver.on('message', (message) => (isCurrent() ? this.#batches.receive(whatsappId, message) : Promise.resolve()));
    driver.on('ack', ({ providerId, ack }) => {
      this.ctx.events.publish('channel.ack', { whatsappId, providerId, ack });
      if (this.#handler) void this.#handler.ack(whatsappId, providerId, ack).catch(log);
    });
    // A deletion or an edit may concern a message still waiting in the inbound queue: it is
    // applied once what arrived before it is written.
    driver.on('revoke', ({ providerId }) => {
      const handler = this.#handler;
      if (handler) void this.#batches.after(whatsappId, () => handler.revoke(whatsappId, providerId)).catch(log);
    });
    driver.on('edit', (update) => {
      const handler = this.#handler;
      if (isCurrent() && handler) void this.#batches.after(whatsappId, () => handler.edit(whatsappId, update)).catch(log);
    });
    // Like an edit, a reaction may concern a message still waiting in the inbound queue.
    driver.on('reaction', (reaction) => {
      const handler = this.#handler;
      if (isCurrent() && handler) void this.#batches.after(whatsappId, () => handler.reaction(whatsappId, reaction)).catch(log);
    });
    driver.on('contact', (update) => {
      const handler = this.#handler;
      if (isCurrent() && handler) void handler.contact(whatsappId, update).catch(log);
    });
    driver.on('call', (call) => {
      const handler = this.#handler;
      return isCurrent() && handler ? handler.call(whatsappId, call).catch(log) : undefined;
    });
  }

  /**
   * After an unclean stop: what the phone holds of the recently active chats, from each chat's
   * newest stored message on, goes through the pipeline like a live message; the unique
   * provider id drops what is already stored.
   */
  async #readAgain(whatsappId: number, driver: ChannelDriver): Promise<void> {
    const handler = this.#handler;
    if (!handler) return;
    for (const { chat, after } of await handler.recentChats(whatsappId)) {
      if (this.#sessions.get(whatsappId) !== driver) return;
      let missed: InboundMessage[];
      try {
        missed = await driver.fetchHistory({ chat, limit: CATCH_UP_MESSAGES_MAX, after });
      } catch (error) {
        this.ctx.events.publish('channel.error', { whatsappId, error });
        continue;
      }
      await Promise.all(missed.map((message) => this.#batches.receive(whatsappId, message)));
    }
  }

  /**
   * Runs the connection's sends one at a time, in the order asked: a burst of replies reaches
   * the chat in the order the agent wrote them.
   */
  exclusive<T>(whatsappId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.#sending.get(whatsappId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.#sending.set(whatsappId, settled);
    void settled.then(() => {
      if (this.#sending.get(whatsappId) === settled) this.#sending.delete(whatsappId);
    });
    return next;
  }

  /** This node's sessions by their last status (a session that said nothing yet is OPENING). */
  #countByStatus(): Record<string, number> {
    const counts: Record<string, number> = Object.fromEntries(CONNECTION_STATUSES.map((status) => [status, 0]));
    for (const id of this.#sessions.keys()) {
      const status = this.#statuses.get(id) ?? 'OPENING';
      counts[status] = (counts[status] ?? 0) + 1;
    }
    return counts;
  }

  async #saveState(whatsappId: number, state: { status: ConnectionStatus; qrcode?: string }): Promise<void> {
    const retries = this.#retries.get(whatsappId) ?? 0;
    const now = nowIso();
    const current = await this.store.saveState(whatsappId, { ...state, retries }, now);
    if (!current) return;
    // A connection's lifecycle (connected, disconnected…) at info; each new QR code only at debug, never its content.
    this.ctx.log[current.status === 'qrcode' ? 'debug' : 'info']({ whatsappId, status: current.status, retries: current.retries }, 'connection status');
    this.ctx.events.publish('whatsapp.session', { id: whatsappId, status: current.status, qrcode: current.qrcode, retries: current.retries, updatedAt: current.updatedAt });
  }
}

function idOf(args: unknown): number {
  return (args as { whatsappId: number }).whatsappId;
}
