/** Builds the whole product: database, HTTP API, web app and realtime gateway, on one server. */
import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { LIMITS } from '@zapdesk/shared/domain';
import type { ErrorBody } from '@zapdesk/shared/errors';
import { ZHealthSchema } from '@zapdesk/shared/schemas';
import { TokenService } from './core/auth/tokens.js';
import type { Config } from './core/config.js';
import type { AppContext } from './core/context.js';
import { openDatabase } from './core/db/database.js';
import { migrateToLatest } from './core/db/migrate.js';
import { DomainEventBus } from './core/events.js';
import { installAuditHook } from './core/http/audit-hook.js';
import { AppError } from './core/errors.js';
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './core/http/error-handler.js';
import { installCors } from './core/http/cors.js';
import { PARSER_ERROR_HEADERS, securityHeaders as buildSecurityHeaders } from './core/http/security-headers.js';
import { memoryFailureStore, redisFailureStore } from './core/http/failure-throttle.js';
import { loadSecrets } from './core/secrets.js';
import { Presence } from './core/presence.js';
import { memoryRateCounter, redisRateCounter } from './core/rate-counter.js';
import { sweepStaleUploads } from './core/http/uploads.js';
import { healthRoutes, Readiness } from './core/http/health.js';
import { seedSettings } from './features/settings/settings.service.js';
import { ensureAdmin, type AdminLogin } from './features/users/bootstrap-admin.js';
import { createInboundHandler } from './features/messages/inbound.service.js';
import { createLogger } from './core/logger.js';
import { installRequestId, requestIdOptions } from './core/http/request-id.js';
import { connectRedis } from './core/redis.js';
import { Leases } from './core/cluster/leases.js';
import { NodeRpc } from './core/cluster/node-rpc.js';
import { relayClusterEvents } from './core/cluster/event-relay.js';
import { trackTypebotOrigin } from './features/chatbot/chatbot.service.js';
import type { DriverFactory } from './channels/driver-factory.js';
import { SessionManager } from './channels/session-manager.js';
import { createConnectionStore } from './features/whatsapps/connection-store.js';
import { createIdentity } from './features/auth/identity.js';
import { createAuditLog } from './features/audit/audit.service.js';
import { attachRealtime, type RealtimeServer } from './realtime/gateway.js';
import { apiRoutes } from './routes.js';
import { startJobs } from './jobs/start-jobs.js';
import { createAppMetrics } from './core/metrics/app-metrics.js';
import { instrumentRequests, metricsRoute, metricsServed, startMetricsListener } from './core/metrics/metrics-http.js';

export const VERSION = '0.1.0';

/** Text fields of a multipart body (a message's caption, at most 30,000 characters): few, and small. */
const MULTIPART_FIELDS = 20;
const MULTIPART_FIELD_BYTES = 256 * 1024;

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/** One line per request only when debugging: at info level the log stays readable. */
function requestLogging(enabled: boolean): LogController {
  return new LogController({ disableRequestLogging: !enabled });
}

/** `metricsUrl`: the address of the METRICS_HOST:METRICS_PORT listener, when there is one. `readiness.drain()` turns /api/health/ready to 503 at once; `close()` does it too, then stops everything (docs/operations.md). */
export type BuiltApp = {
  app: FastifyInstance;
  ctx: AppContext;
  io: RealtimeServer;
  sessions: SessionManager;
  admin: AdminLogin;
  metricsUrl: string | undefined;
  readiness: Readiness;
  close: () => Promise<void>;
};

export async function buildApp(config: Config, options: { driverFactory?: DriverFactory; logDestination?: DestinationStream } = {}): Promise<BuiltApp> {
  // One JSON line per event, with secrets blanked (core/logger.ts); tests may read the lines.
  const log = createLogger(config.logLevel, options.logDestination);
  const secrets = loadSecrets(config);
  // The cluster mode: Redis first, so a node that cannot reach it does not start half-way.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, config.redisPrefix) : undefined;
  const handle = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrateToLatest(handle);
  if (applied.length) log.info({ migrations: applied }, 'migrations applied');
  // Which node runs each session and singleton job: every one here on a single node.
  const leases = new Leases(handle.db, { nodeId: config.nodeId, ttlMs: config.sessionLeaseSeconds * 1000, clustered: redis !== undefined });
  const rpc = redis ? new NodeRpc(redis.pub, redis.rpc, redis.prefix, config.nodeId, log) : undefined;
  await rpc?.start();
  const metrics = createAppMetrics(config, handle, redis !== undefined);
  const ctx: AppContext = {
    leases,
    config,
    log,
    db: handle.db,
    dbKind: handle.kind,
    events: new DomainEventBus(log),
    secrets,
    identity: createIdentity(handle.db, handle.kind),
    audit: createAuditLog(handle.db),
    presence: new Presence(),
    failures: redis ? redisFailureStore(redis.limits, redis.prefix) : memoryFailureStore(),
    counters: redis ? redisRateCounter(redis.limits, redis.prefix) : memoryRateCounter(),
    metrics,
    tokens: new TokenService({
      accessSecret: secrets.jwtSecret,
      refreshSecret: secrets.jwtRefreshSecret,
      accessTtl: config.accessTokenTtl,
      refreshTtl: config.refreshTokenTtl,
    }),
  };
  if (redis) await relayClusterEvents(ctx.events, redis.pub, redis.rpc, redis.prefix, config.nodeId, log);
  await seedSettings(ctx);
  const { events } = ctx;
  const sessions = new SessionManager(ctx, createConnectionStore(ctx.db), options.driverFactory, rpc);
  sessions.setInboundHandler(createInboundHandler(ctx, sessions));
  const admin = await ensureAdmin(ctx);

  // /ZDGChatbot frames the Typebot server of the settings: frame-src allows that one origin.
  const typebotFrame = await trackTypebotOrigin(ctx);
  const securityHeaders = buildSecurityHeaders(() => typebotFrame.origin());

  // Fastify's own logger type (the routes' types are written against it).
  const fastifyLog: FastifyBaseLogger = log;
  const app = Fastify({
    // Secrets never reach the log, whatever the level (see log-redaction.ts); X-Request-Id, see request-id.ts.
    loggerInstance: fastifyLog,
    ...requestIdOptions,
    // A hop count trusts that many proxies in front, the nearest first (proxy-addr's rule).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    logController: requestLogging(config.logLevel === 'debug' || config.logLevel === 'trace'),
    // Errors met before routing, and requests Node's parser refuses, leave in our error shape too.
    frameworkErrors: frameworkErrors((request, reply) => securityHeaders(request, reply, () => undefined)),
    clientErrorHandler: clientErrorHandler(PARSER_ERROR_HEADERS),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installRequestId(app);
  installErrorHandling(app);
  // Before the routes: each route that declares `config.audit` is recorded by this one hook.
  installAuditHook(app, () => ctx.audit);
  app.addHook('onRequest', securityHeaders);
  if (metricsServed(config.metrics)) instrumentRequests(app, metrics);
  // FRONTEND_URL's origin (a whaticket frontend served elsewhere) may call with credentials; no other.
  installCors(app, config.frontendOrigin);

  // Strict-Transport-Security only over HTTPS (as seen through TRUST_PROXY): on plain HTTP it
  // would mean nothing, and on a LAN install it would lock browsers out of the HTTP address.
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
  await app.register(cookie);
  // Files are streamed to disk by core/http/uploads.ts; these limits bound what the parser itself holds.
  await app.register(multipart, {
    limits: { fileSize: config.uploadMaxFileBytes, files: LIMITS.filesPerMessage, fields: MULTIPART_FIELDS, fieldSize: MULTIPART_FIELD_BYTES, parts: LIMITS.filesPerMessage + MULTIPART_FIELDS },
  });
  await sweepStaleUploads(config.mediaDir);
  // Counted in Redis in the cluster mode, so that every node counts the same attempts.
  await app.register(rateLimit, { global: false, ...(redis ? { redis: redis.limits, nameSpace: `${redis.prefix}:rate-limit:` } : {}) });
  await app.register(swagger, {
    openapi: {
      info: { title: 'ZapDesk API', version: VERSION, description: 'Multi-agent WhatsApp inbox. Authenticate with `Authorization: Bearer <token>` from POST /api/auth/login.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // The API docs page sets its own policy, with the hashes of its inline start-up script; the
  // viewer sets inline styles, and a LAN install serves it over plain HTTP.
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, '').replace("style-src 'self' https:", "style-src 'self' https: 'unsafe-inline'"),
  });

  app.get('/api/health', { schema: { tags: ['health'], response: { 200: ZHealthSchema } } }, () => ({
    status: 'ok' as const,
    database: ctx.dbKind,
    version: VERSION,
  }));
  const readiness = new Readiness({
    handle,
    ...(redis ? { pingRedis: () => redis.limits.ping() } : {}),
    onChange: (check, result, error) =>
      result === 'ok' ? app.log.info({ check }, 'readiness check passes again') : app.log.warn({ check, result, reason: error instanceof Error ? error.message : undefined }, 'readiness check fails'),
  });
  // The first round at start: it sees the migrations just applied, and the answer keeps that.
  await readiness.check();
  healthRoutes(app, readiness);

  metricsRoute(app, metrics, config.metrics);
  await app.register(apiRoutes(config, ctx, sessions), { prefix: '/api' });

  const webIndex = path.join(config.webDist, 'index.html');
  const hasWeb = fs.existsSync(webIndex);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: false,
      cacheControl: false,
      // Hashed assets never change; index.html is checked on every load so a release shows at once.
      setHeaders: (res, file) => {
        const name = path.relative(config.webDist, file);
        res.setHeader('cache-control', name.startsWith(`assets${path.sep}`) ? 'public, max-age=31536000, immutable' : name === 'index.html' ? 'no-cache' : 'public, max-age=3600');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/socket.io');
    if (!isApi && hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
      // Client-side routes (/tickets, /users, ...) all load the web app.
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ error: 'ERR_NOT_FOUND', message: `Route ${request.method} ${request.url.split('?')[0]} not found` } satisfies ErrorBody);
  });

  await app.ready();
  const io = attachRealtime(ctx, app.server, redis);
  // A refusal the channel explained (AppError: not connected, the other node gone) is handled; anything else needs a look.
  events.subscribe('channel.error', ({ whatsappId, error }) => log[error instanceof AppError ? 'warn' : 'error']({ err: error, whatsappId }, 'channel event failed'));
  // A single node starts its sessions before the jobs, which settle what a stop left half-done
  // with them; a cluster node starts the jobs first, which settle it as each session is taken over.
  const jobs = await startJobs(ctx, sessions);
  const metricsListener = config.metrics.listen ? await startMetricsListener(metrics, config.metrics.listen) : undefined;

  return {
    app,
    ctx,
    io,
    admin,
    sessions,
    metricsUrl: metricsListener?.url,
    readiness,
    close: async () => {
      // A balancer asking /api/health/ready sends no more.
      readiness.drain();
      await metricsListener?.close();
      typebotFrame.stop();
      jobs.stopTimers();
      // Socket clients lose their transport and reconnect on their own (to another node behind a
      // balancer); no new connection is taken. Requests under way finish while the jobs end their
      // current step (a campaign send under way is sent and recorded; what is left stays queued).
      await io.close();
      await Promise.all([app.close(), jobs.stop()]);
      // Sessions stop without logging out; in the cluster mode their leases are given up for another node to take at once.
      await sessions.closeAll();
      rpc?.close();
      await redis?.close();
      await handle.close();
    },
  };
}
