/**
 * The stop on SIGTERM or SIGINT (systemd's stop, Ctrl+C): readiness turns 503 at once, and after
 * SHUTDOWN_DELAY_SECONDS (time for a balancer's next probe) the app closes: sockets told to
 * reconnect elsewhere, no new connections, requests under way finished, jobs ended at their
 * current step, sessions closed without logging out, leases given up, Redis and the database
 * closed; then exit 0. A second signal, or SHUTDOWN_TIMEOUT_SECONDS passing, ends the process at
 * once with code 1 and says so in the log.
 */
export type Stoppable = { readiness: { drain: () => void }; close: () => Promise<void> };
export type ShutdownLog = { info: (message: string) => void; error: (message: string) => void };
export type ShutdownOptions = { timeoutMs: number; delayMs: number; log: ShutdownLog; exit?: (code: number) => void };

export function installShutdown(target: Stoppable, options: ShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      options.log.error(`${signal} received again while shutting down: exiting now`);
      exit(1);
      return;
    }
    stopping = true;
    options.log.info(`${signal} received, shutting down (at most ${options.timeoutMs / 1000} s)`);
    const limit = setTimeout(() => {
      options.log.error(`shutdown took longer than ${options.timeoutMs / 1000} s (SHUTDOWN_TIMEOUT_SECONDS): exiting now`);
      exit(1);
    }, options.timeoutMs);
    target.readiness.drain();
    void (async () => {
      try {
        if (options.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        await target.close();
        clearTimeout(limit);
        options.log.info('shut down cleanly');
        exit(0);
      } catch (error) {
        clearTimeout(limit);
        options.log.error(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        exit(1);
      }
    })();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
