import { jobRound } from './log-context.js';

/**
 * A job's polling: `work` runs now, then again `everyMs` after each round ends, never two rounds
 * at once. stop() cancels the next round and waits for the one under way. Each round logs under
 * its own id, `job:<name>:<round>` (core/log-context.ts).
 */
export function pollLoop(work: () => Promise<void>, everyMs: number, onError: (error: unknown) => void, name = 'poll'): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  const tick = () => {
    round = jobRound(name, () =>
      work()
        .catch(onError)
        .finally(() => {
          if (stopped) return;
          timer = setTimeout(tick, everyMs);
          timer.unref();
        }),
    );
  };
  tick();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
}
