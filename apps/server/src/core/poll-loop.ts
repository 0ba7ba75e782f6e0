import { jobRound } from './log-context.js';

/**
 * Told when a round starts; the function it returns is called when that round ends (the
 * metrics' job lags and round durations, see core/metrics/metrics.ts).
 */
export type RoundObserver = () => () => void;

/**
 * A job's polling: `work` runs now, then again `everyMs` after each round ends, never two rounds
 * at once. stop() cancels the next round and waits for the one under way. Each round logs under
 * its own id, `job:<name>:<round>` (core/log-context.ts).
 */
export function pollLoop(work: () => Promise<void>, everyMs: number, onError: (error: unknown) => void, name = 'poll', observe?: RoundObserver): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  const tick = () => {
    const ended = observe?.();
    round = jobRound(name, () =>
      work()
        .catch(onError)
        .finally(() => {
          ended?.();
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
