/**
 * Who may read /metrics (off unless configured):
 * - METRICS_TOKEN: /metrics on the main port answers a bearer of this token (16 characters or more);
 * - METRICS_PORT (with METRICS_HOST, 127.0.0.1 by default): a listener of its own that serves
 *   only /metrics, without a token (bind it where only the scraper reaches).
 * Neither: /metrics answers 404.
 */
import net from 'node:net';
import { z } from 'zod';

export type MetricsConfig = {
  /** The bearer token /metrics on the main port asks for; undefined: not served there. */
  token: string | undefined;
  /** The separate listener, serving only /metrics; undefined: none. */
  listen: { host: string; port: number } | undefined;
};

export const METRICS_TOKEN_MIN = 16;

const ZMetricsEnv = z.object({
  METRICS_TOKEN: z.string().optional(),
  METRICS_HOST: z.string().optional(),
  METRICS_PORT: z.string().optional(),
});

/** Throws a message naming the variable (never the token's value) when one is not valid. */
export function parseMetricsConfig(env: NodeJS.ProcessEnv): MetricsConfig {
  const e = ZMetricsEnv.parse(env);
  const token = e.METRICS_TOKEN || undefined;
  if (token !== undefined && (token.length < METRICS_TOKEN_MIN || /\s/.test(token))) {
    throw new Error(`METRICS_TOKEN: at least ${METRICS_TOKEN_MIN} characters, without spaces.`);
  }
  const host = e.METRICS_HOST?.trim() || undefined;
  const portText = e.METRICS_PORT?.trim() || undefined;
  if (host !== undefined && portText === undefined) throw new Error('METRICS_HOST: give METRICS_PORT too (the port of the metrics listener).');
  if (portText === undefined) return { token, listen: undefined };
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) throw new Error(`METRICS_PORT: "${portText}" is not a port (0 to 65535).`);
  const listenHost = host ?? '127.0.0.1';
  if (net.isIP(listenHost) === 0 && listenHost !== 'localhost') throw new Error(`METRICS_HOST: "${listenHost}" is not an IP address (e.g. 127.0.0.1).`);
  return { token, listen: { host: listenHost, port: Number(portText) } };
}
