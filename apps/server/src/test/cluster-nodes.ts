/**
 * Nodes of the cluster mode for tests: one fresh PostgreSQL database, one Redis prefix, shared
 * secrets and media folder, `count` nodes listening. Undefined when Redis is missing (the probe
 * has already said so, or thrown on CI).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPostgresDatabase, createTestApp, type TestApp } from './harness.js';
import { redisForClusterTests, TEST_REDIS_URL } from './redis.js';

export type ClusterNodes = { nodes: TestApp[]; urls: string[]; close: () => Promise<void> };

export async function startClusterNodes(count: number, env: Record<string, string> = {}): Promise<ClusterNodes | undefined> {
  if (!(await redisForClusterTests())) return undefined;
  const database = await createPostgresDatabase();
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-cluster-media-'));
  const shared = {
    DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: `zapdesk-test-${randomBytes(4).toString('hex')}`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEY: randomBytes(24).toString('hex'),
    MEDIA_DIR: mediaDir,
    SIMULATOR: 'on',
    ...env,
  };
  const nodes: TestApp[] = [];
  const urls: string[] = [];
  const close = async () => {
    for (const node of nodes.splice(0)) await node.close();
    await database.drop();
    fs.rmSync(mediaDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < count; i += 1) {
      const node = await createTestApp(shared);
      nodes.push(node);
      urls.push(await node.listen());
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { nodes, urls, close };
}
