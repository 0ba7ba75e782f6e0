/**
 * Redis in the cluster mode (REDIS_URL): the socket.io adapter's publish and subscribe
 * connections, the rate limits' store and the calls between nodes, all under one key prefix so that several
 * deployments may share a Redis. Absent on a single node.
 */
import { Redis } from 'ioredis';

export type RedisClients = { pub: Redis; sub: Redis; limits: Redis; rpc: Redis; prefix: string; close: () => Promise<void> };

/** Connects the three clients; a Redis that cannot be reached stops the start with a clear message. */
export async function connectRedis(url: string, prefix: string): Promise<RedisClients> {
  const options = { lazyConnect: true, maxRetriesPerRequest: 3, connectTimeout: 5_000, enableOfflineQueue: true };
  const pub = new Redis(url, options);
  const sub = pub.duplicate();
  // The rate limits' store: an unreachable Redis answers quickly instead of holding requests.
  const limits = new Redis(url, { ...options, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
  // The calls between nodes listen on a connection of their own.
  const rpc = pub.duplicate();
  const clients = [pub, sub, limits, rpc];
  try {
    await Promise.all(clients.map((client) => client.connect()));
  } catch (error) {
    for (const client of clients) client.disconnect();
    throw new Error(`REDIS_URL: Redis could not be reached (${error instanceof Error ? error.message : String(error)}).`, { cause: error });
  }
  return {
    pub,
    sub,
    limits,
    rpc,
    prefix,
    close: async () => {
      await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
    },
  };
}
