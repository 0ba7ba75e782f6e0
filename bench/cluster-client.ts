/** The cluster benchmark's client side: the HTTP calls of the phone and the admin, and the agents' sockets. */
import http from 'node:http';
import { io as connect, type Socket } from 'socket.io-client';
import type { ClusterNode } from './cluster-nodes.js';

/**
 * The phone's and the admin's calls, on kept-alive connections (node:http): fetch spent about
 * twice the CPU a call, and the client shares the machine's two cores with the cluster it measures.
 */
export const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 256 });

export function api<T>(node: ClusterNode, method: string, url: string, token: string | undefined, body?: unknown): Promise<{ status: number; body: T }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${node.url}${url}`,
      {
        method,
        agent: keepAlive,
        headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        signal: AbortSignal.timeout(10_000),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          try {
            resolve({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : null) as T });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export async function openSocket(node: ClusterNode, token: string): Promise<Socket> {
  const socket = connect(node.url, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  // Message events reach the sockets that joined a room carrying them: the bell's, like the web app.
  await socket.emitWithAck('joinNotification');
  return socket;
}
