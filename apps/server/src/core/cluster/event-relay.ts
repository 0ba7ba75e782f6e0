/**
 * The cluster mode: the domain events that drive work on other nodes (CLUSTER_EVENTS) go to
 * every node through Redis, as JSON, and are heard there by the subscribeCluster handlers. The
 * id of the request (or job round) that raised an event goes with it: the handlers on the other
 * nodes log under it.
 */
import type { Redis } from 'ioredis';
import { isClusterEvent, type DomainEventBus } from '../events.js';
import { currentReqId, withReqId } from '../log-context.js';
import type { Logger } from '../logger.js';
import { wireReqId } from './node-rpc.js';

type Relayed = { node: string; name: string; payload: unknown; reqId?: string | undefined };

export async function relayClusterEvents(events: DomainEventBus, pub: Redis, sub: Redis, prefix: string, nodeId: string, log?: Logger): Promise<void> {
  const channel = `${prefix}:events`;
  sub.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    let message: Relayed;
    try {
      message = JSON.parse(text) as Relayed;
    } catch {
      return;
    }
    if (message.node === nodeId || !isClusterEvent(message.name)) return;
    const name = message.name;
    withReqId(wireReqId(message.reqId) ?? `event:${name}`, () => {
      log?.debug({ event: name, from: message.node }, 'event from another node');
      events.receiveFromCluster(name, message.payload);
    });
  });
  await sub.subscribe(channel);
  events.relayTo((name, payload) => void pub.publish(channel, JSON.stringify({ node: nodeId, name, payload, reqId: currentReqId() } satisfies Relayed)).catch(() => undefined));
}
