/**
 * A broadcast is encoded (JSON, and its WebSocket frame) only when a socket of this node gets
 * it. socket.io encodes every broadcast before looking for its sockets, on every node the Redis
 * adapter hands it to: in the cluster mode, a message's events were encoded on each node, also
 * where none of the sockets is in their rooms (agents of other queues, a namespace nobody uses).
 * What the sockets receive is unchanged: the same encoding, made at the first socket instead of
 * before the search.
 */
import type { AppNamespace } from './connection.js';

type Encode = (packet: unknown, packetOpts: object) => unknown[];
type Apply = (opts: unknown, callback: (socket: unknown) => void) => void;
/** The two steps of socket.io's Adapter.broadcast (and broadcastWithAck): `_encode`, then `apply` to each socket. */
type BroadcastSteps = { _encode: Encode; apply: Apply };

export function encodeOnDemand(adapter: AppNamespace['adapter']): void {
  const steps = adapter as unknown as BroadcastSteps;
  const encode = steps._encode.bind(adapter);
  const apply = steps.apply.bind(adapter);
  let next: { encoded: unknown[]; packet: unknown; packetOpts: object } | undefined;
  // Adapter.broadcast calls _encode then apply at once, in the same turn: the packets _encode
  // hands back stay empty until apply meets the first socket, which fills them in place before
  // the socket writes them.
  steps._encode = (packet, packetOpts) => {
    const encoded: unknown[] = [];
    next = { encoded, packet, packetOpts };
    return encoded;
  };
  steps.apply = (opts, callback) => {
    const pending = next;
    next = undefined;
    if (!pending) return apply(opts, callback);
    let done = false;
    apply(opts, (socket) => {
      if (!done) {
        done = true;
        pending.encoded.push(...encode(pending.packet, pending.packetOpts));
      }
      callback(socket);
    });
  };
}
