/**
 * The cluster mode: the domain events that drive work on other nodes (CLUSTER_EVENTS) go to
 * every node through Redis, as JSON, and are heard there by the subscribeCluster handlers.
 */
import type { Redis } from 'ioredis';
import { isClusterEvent, type DomainEventBus } from '../events.js';

export async function relayClusterEvents(events: DomainEventBus, pub: Redis, sub: Redis, prefix: string, nodeId: string): Promise<void> {
  const channel = `${prefix}:events`;
  sub.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    let message: { node: string; name: string; payload: unknown };
    try {
      message = JSON.parse(text) as { node: string; name: string; payload: unknown };
    } catch {
      return;
    }
    if (message.node !== nodeId && isClusterEvent(message.name)) events.receiveFromCluster(message.name, message.payload);
  });
  await sub.subscribe(channel);
  events.relayTo((name, payload) => void pub.publish(channel, JSON.stringify({ node: nodeId, name, payload })).catch(() => undefined));
}
