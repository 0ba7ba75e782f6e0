import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { parsePrometheusText, sumOf } from '../../test/prometheus-text.js';
import { Metrics } from './metrics.js';
import { bearerMatches } from './metrics-http.js';
import { parseMetricsConfig } from './metrics-config.js';

describe('METRICS_TOKEN, METRICS_HOST and METRICS_PORT', () => {
  it('is off by default', () => {
    expect(parseMetricsConfig({})).toEqual({ token: undefined, listen: undefined });
    expect(loadConfig({}).metrics).toEqual({ token: undefined, listen: undefined });
  });

  it('takes a token of 16 characters or more, and refuses a shorter one at start without printing it', () => {
    expect(parseMetricsConfig({ METRICS_TOKEN: 'a'.repeat(16) }).token).toBe('a'.repeat(16));
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(/METRICS_TOKEN: at least 16 characters/);
    try {
      loadConfig({ METRICS_TOKEN: 'short-secret' });
    } catch (error) {
      expect((error as Error).message).not.toContain('short-secret');
    }
    expect(() => parseMetricsConfig({ METRICS_TOKEN: 'has a space in the middle' })).toThrow(/METRICS_TOKEN/);
  });

  it('listens on METRICS_PORT, at 127.0.0.1 unless METRICS_HOST says otherwise', () => {
    expect(parseMetricsConfig({ METRICS_PORT: '9464' }).listen).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseMetricsConfig({ METRICS_HOST: '10.0.0.5', METRICS_PORT: '9464' }).listen).toEqual({ host: '10.0.0.5', port: 9464 });
    expect(() => loadConfig({ METRICS_HOST: '127.0.0.1' })).toThrow(/METRICS_HOST: give METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_HOST: 'metrics.example.com', METRICS_PORT: '9464' })).toThrow(/METRICS_HOST/);
  });
});

describe('the metrics registry', () => {
  it('is one per app: two in one process count apart', async () => {
    const a = new Metrics();
    const b = new Metrics();
    a.campaignSends.inc({ outcome: 'sent' });
    a.webhookDelivery('delivered', 0.2);
    b.webhookDelivery('failed', 1.5);
    const sa = parsePrometheusText((await a.scrape()).body);
    const sb = parsePrometheusText((await b.scrape()).body);
    expect(sumOf(sa, 'zapdesk_campaign_sends_total', { outcome: 'sent' })).toBe(1);
    expect(sumOf(sb, 'zapdesk_campaign_sends_total')).toBe(0);
    expect(sumOf(sa, 'zapdesk_webhook_deliveries_total', { outcome: 'delivered' })).toBe(1);
    expect(sumOf(sb, 'zapdesk_webhook_deliveries_total', { outcome: 'failed' })).toBe(1);
    expect(sumOf(sb, 'zapdesk_webhook_delivery_duration_seconds_sum')).toBe(1.5);
  });

  it("labels every series with the node's name in the cluster mode", async () => {
    const metrics = new Metrics({ node: 'node-a' });
    metrics.readMemo.inc({ result: 'hit' });
    const s = parsePrometheusText((await metrics.scrape()).body);
    expect(s.samples.length).toBeGreaterThan(0);
    expect(s.samples.every((x) => x.labels.node === 'node-a')).toBe(true);
  });

  it("times a job's rounds and the time since the last one", async () => {
    const metrics = new Metrics();
    const round = metrics.loop('sweep');
    const ended = round();
    ended();
    const s = parsePrometheusText((await metrics.scrape()).body);
    expect(sumOf(s, 'zapdesk_job_round_duration_seconds_count', { job: 'sweep' })).toBe(1);
    expect(sumOf(s, 'zapdesk_job_seconds_since_last_round', { job: 'sweep' })).toBeLessThan(5);
  });
});

describe('the metrics token check', () => {
  it('accepts exactly `Bearer <token>`', () => {
    const token = 'metrics-token-0123456789';
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
    for (const header of [undefined, '', token, `Bearer ${token}x`, `Bearer ${token.slice(1)}`, `Basic ${token}`, 'Bearer ']) expect(bearerMatches(header, token), header).toBe(false);
  });
});
