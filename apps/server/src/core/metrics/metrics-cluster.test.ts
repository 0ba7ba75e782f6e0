/**
 * Metrics in the cluster mode: two nodes on one PostgreSQL and one Redis, each serving its own
 * /metrics, every series labelled with its node's name; a request answered by one node is
 * counted by that node only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClusterNodes, type ClusterNodes } from '../../test/cluster-nodes.js';
import { parsePrometheusText, sumOf, type Scrape } from '../../test/prometheus-text.js';
import type { TestApp } from '../../test/harness.js';

const TOKEN = 'cluster-metrics-token-0123456789';

describe.runIf(process.env.TEST_DB === 'postgres')('metrics per node (PostgreSQL and Redis)', () => {
  let cluster: ClusterNodes | undefined;

  beforeAll(async () => {
    cluster = await startClusterNodes(2, { METRICS_TOKEN: TOKEN });
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
  });

  async function scrape(node: TestApp): Promise<Scrape> {
    const res = await node.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    return parsePrometheusText(res.body);
  }

  it("labels each node's series with its name and counts its own requests", async (context) => {
    if (!cluster) return context.skip();
    const [a, b] = cluster.nodes as [TestApp, TestApp];
    expect(a.ctx.config.nodeId).not.toBe(b.ctx.config.nodeId);
    const route = { method: 'GET', route: '/api/health', status_code: '200' };
    const [beforeA, beforeB] = [await scrape(a), await scrape(b)];
    for (let i = 0; i < 5; i += 1) expect((await a.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const [afterA, afterB] = [await scrape(a), await scrape(b)];
    for (const [node, s] of [
      [a, afterA],
      [b, afterB],
    ] as const) {
      expect(s.samples.length).toBeGreaterThan(0);
      expect(s.samples.filter((x) => x.labels.node !== node.ctx.config.nodeId)).toEqual([]);
    }
    expect(sumOf(afterA, 'zapdesk_http_requests_total', route) - sumOf(beforeA, 'zapdesk_http_requests_total', route)).toBe(5);
    expect(sumOf(afterB, 'zapdesk_http_requests_total', route) - sumOf(beforeB, 'zapdesk_http_requests_total', route)).toBe(0);
  });
});
