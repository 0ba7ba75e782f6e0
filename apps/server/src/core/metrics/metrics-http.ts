/**
 * /metrics over HTTP: the requests' counters and latencies (by route pattern, never the URL
 * with its ids), the route on the main port behind METRICS_TOKEN, and the separate listener
 * of METRICS_HOST:METRICS_PORT that serves only /metrics.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ErrorBody } from '@zapdesk/shared/errors';
import { AppError } from '../errors.js';
import type { Metrics } from './metrics.js';
import type { MetricsConfig } from './metrics-config.js';

/** The route label of a request no route matched (an unknown URL must not make a series of its own). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Whether metrics are served at all (a token, a listener, or both). */
export function metricsServed(config: MetricsConfig): boolean {
  return config.token !== undefined || config.listen !== undefined;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Whether the Authorization header carries the token, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  // Digests of the same length: the comparison's time tells nothing of the token or its length.
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

/**
 * Counts every answered request by method, route pattern and status, with its latency. Only
 * where metrics are served: otherwise a request pays nothing for them.
 */
export function instrumentRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status_code: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}

/** GET /metrics on the main port: a bearer of METRICS_TOKEN only; 404 when no token is set. */
export function metricsRoute(app: FastifyInstance, metrics: Metrics, config: MetricsConfig): void {
  app.get(
    '/metrics',
    // Not part of the API's document (which lists /api only): docs/metrics.md describes it.
    { schema: { hide: true } },
    async (request, reply) => {
      const { token } = config;
      if (token === undefined) {
        return reply.code(404).send({ error: 'ERR_NOT_FOUND', message: 'Route GET /metrics not found' } satisfies ErrorBody);
      }
      if (!bearerMatches(request.headers.authorization, token)) throw new AppError('ERR_INVALID_TOKEN');
      const { contentType, body } = await metrics.scrape();
      return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
    },
  );
}

/** The listener of METRICS_HOST:METRICS_PORT: GET /metrics and nothing else, no token. */
export async function startMetricsListener(metrics: Metrics, listen: { host: string; port: number }): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: 'ERR_NOT_FOUND', message: 'Only GET /metrics is served here' } satisfies ErrorBody));
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error: 'ERR_INTERNAL', message: 'Metrics could not be collected' }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
