/**
 * In the cluster mode: a connection's session as seen from a node that does not run it. Every
 * call goes to the node that runs it (core/cluster/node-rpc.ts) and answers what it answered
 * there; inbound events stay on that node, whose pipeline stores them.
 */
import type { NodeRpc } from '../core/cluster/node-rpc.js';
import { AppError } from '../core/errors.js';
import type { ChannelDriver, ChatAddress, GroupChange, GroupCreated, GroupInfo, HistoryRequest, InboundMessage, OutboundContent, SendResult } from './channel.js';

/**
 * What a node may be asked to do on a session it runs: the channel contract, and the simulated
 * phone's controls (the simulator's routes reach the phone wherever its session runs).
 */
export const SESSION_CALLS = new Set([
  'requestPairingCode',
  'send',
  'confirmSent',
  'deleteForEveryone',
  'markRead',
  'rejectCall',
  'checkNumber',
  'profilePictureUrl',
  'fetchHistory',
  'listGroups',
  'groupInfo',
  'createGroup',
  'updateGroup',
  'scan',
  'deliver',
  'seedHistory',
  'edit',
  'react',
  'updateContact',
  'outbox',
  'drop',
  'addGroup',
  'groups',
  'ownNumber',
  'readReceipts',
  'participants',
  'placeCall',
  'calls',
]);

/** What the node running a session does when another asks (see serveSessionCalls). */
export type SessionHost = {
  start(whatsappId: number): Promise<void>;
  logout(whatsappId: number): Promise<void>;
  /** The live driver of a session this node runs, or ERR_WAPP_NOT_INITIALIZED. */
  requireDriver(whatsappId: number): ChannelDriver;
  /** Resolves once the status changes emitted so far are stored. */
  settled(whatsappId: number): Promise<void>;
};

/**
 * The other side of RemoteDriver, on the node that runs the sessions: starts, logs out, and
 * answers what a stand-in asks of a session, once the status changes the call caused are stored.
 */
export function serveSessionCalls(rpc: NodeRpc, host: SessionHost): void {
  const idOf = (args: unknown) => (args as { whatsappId: number }).whatsappId;
  rpc.handle('session.start', (args) => host.start(idOf(args)));
  rpc.handle('session.logout', (args) => host.logout(idOf(args)));
  rpc.handle('session.info', async (args) => {
    const session = host.requireDriver(idOf(args));
    return { connected: session.connected, messageIds: Array.from({ length: 10 }, () => session.newMessageId()) };
  });
  rpc.handle('session.call', async (args) => {
    const { whatsappId, method, params } = args as { whatsappId: number; method: string; params: unknown[] };
    const session = host.requireDriver(whatsappId) as unknown as Record<string, unknown>;
    if (!SESSION_CALLS.has(method) || !(method in session)) throw new AppError('ERR_VALIDATION', { message: `${method} cannot be called on a session.` });
    const member = session[method];
    const value: unknown = typeof member === 'function' ? await (member as (...a: unknown[]) => unknown).apply(session, params) : member;
    await host.settled(whatsappId);
    return value;
  });
}

export class RemoteDriver implements ChannelDriver {
  readonly #messageIds: string[];

  constructor(
    private readonly rpc: NodeRpc,
    /** The node that runs the session. */
    readonly node: string,
    private readonly whatsappId: number,
    snapshot: { connected: boolean; messageIds: string[] },
  ) {
    this.connected = snapshot.connected;
    this.#messageIds = [...snapshot.messageIds];
  }

  /** As the node running the session said when this stand-in was made. */
  readonly connected: boolean;

  /** Asks the node running the session to call `method` on it (a member of SESSION_CALLS). */
  call<T>(method: string, ...params: unknown[]): Promise<T> {
    return this.rpc.call(this.node, 'session.call', { whatsappId: this.whatsappId, method, params }) as Promise<T>;
  }

  async start(): Promise<void> {
    await this.rpc.call(this.node, 'session.start', { whatsappId: this.whatsappId });
  }

  async stop(): Promise<void> {
    // A session is stopped by the node that runs it (a shutdown, a lost lease).
  }

  async logout(): Promise<void> {
    await this.rpc.call(this.node, 'session.logout', { whatsappId: this.whatsappId });
  }

  requestPairingCode(phoneNumber: string): Promise<string> {
    return this.call('requestPairingCode', phoneNumber);
  }

  /** Ids made by the node running the session, in its channel's format, handed over with the snapshot. */
  newMessageId(): string {
    const id = this.#messageIds.shift();
    if (!id) throw new AppError('ERR_WAPP_NOT_INITIALIZED', { message: 'Ask the session again for more message ids.' });
    return id;
  }

  send(to: ChatAddress, content: OutboundContent, options: { providerId: string; quotedProviderId?: string | undefined }): Promise<SendResult> {
    return this.call('send', to, content, options);
  }

  confirmSent(to: ChatAddress, providerId: string): Promise<boolean | undefined> {
    return this.call('confirmSent', to, providerId);
  }

  async deleteForEveryone(chat: ChatAddress, providerId: string, fromMe: boolean): Promise<void> {
    await this.call('deleteForEveryone', chat, providerId, fromMe);
  }

  async markRead(chat: ChatAddress, providerIds: string[]): Promise<void> {
    await this.call('markRead', chat, providerIds);
  }

  async rejectCall(callId: string, from: string): Promise<void> {
    await this.call('rejectCall', callId, from);
  }

  checkNumber(number: string): Promise<string | undefined> {
    return this.call('checkNumber', number);
  }

  profilePictureUrl(chat: ChatAddress): Promise<string | undefined> {
    return this.call('profilePictureUrl', chat);
  }

  fetchHistory(request: HistoryRequest): Promise<InboundMessage[]> {
    return this.call('fetchHistory', request);
  }

  listGroups(): Promise<GroupInfo[]> {
    return this.call('listGroups');
  }

  groupInfo(groupId: string): Promise<GroupInfo> {
    return this.call('groupInfo', groupId);
  }

  createGroup(subject: string, numbers: string[]): Promise<GroupCreated> {
    return this.call('createGroup', subject, numbers);
  }

  async updateGroup(groupId: string, change: GroupChange): Promise<void> {
    await this.call('updateGroup', groupId, change);
  }

  on(): void {
    // Events are handled where the session runs.
  }
}
