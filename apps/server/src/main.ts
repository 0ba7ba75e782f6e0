import { buildApp } from './app.js';
import { loadConfig } from './core/config.js';
import { markRunning } from './core/run-lock.js';
import { installShutdown } from './core/shutdown.js';
import { createLogger } from './core/logger.js';

async function main(): Promise<void> {
  const config = loadConfig();
  // While it runs, `npm run restore` refuses this DATA_DIR.
  markRunning(config.dataDir);
  const built = await buildApp(config);
  const address = await built.app.listen({ port: config.port, host: config.host });
  const url = config.publicUrl ?? `http://localhost:${new URL(address).port}`;
  // Only a generated password still in use is shown; one given in ADMIN_PASSWORD never is.
  const login = built.admin.password
    ? `Log in as ${built.admin.email} with password ${built.admin.password} (generated on first start; change it under Profile)`
    : built.admin.fromEnvironment
      ? `Log in as ${built.admin.email} with the password given in ADMIN_PASSWORD`
      : `Log in as ${built.admin.email} (or any user) with the password you set`;
  // For the person starting the server, on stderr: stdout holds nothing but the log's JSON lines,
  // and a generated password shown here never becomes a log line.
  const lines = ['', `  ZapDesk is running at ${url}`, `  ${login}`, `  Database: ${built.ctx.dbKind}${built.ctx.dbKind === 'sqlite' ? ` (${config.dataDir})` : ''}   API docs: ${url}/api/docs`, ''];
  process.stderr.write(lines.join('\n') + '\n');

  installShutdown(built, {
    timeoutMs: config.shutdownTimeoutSeconds * 1000,
    delayMs: config.shutdownDelaySeconds * 1000,
    log: { info: (message) => built.ctx.log.info(message), error: (message) => built.ctx.log.error(message) },
  });
}

main().catch((error: unknown) => {
  // A JSON line for the log (secrets blanked as everywhere), and the text for the person starting it.
  createLogger('fatal').fatal({ err: error }, 'failed to start');
  process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
