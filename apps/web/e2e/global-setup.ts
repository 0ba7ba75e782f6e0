/** Builds the web app when dist/ is missing, then starts one server for every browser test. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { REPO_ROOT, startServer, WEB_DIST } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
    console.log(`e2e: ${WEB_DIST} has no build, building the web app into it first`);
    execFileSync('npm', ['run', 'build', '-w', 'apps/web', '--', '--outDir', WEB_DIST, '--emptyOutDir'], { cwd: REPO_ROOT, stdio: 'inherit' });
  }
  const server = await startServer();
  project.provide('baseUrl', server.baseUrl);
  return async () => {
    await server.stop();
  };
}
