/**
 * The log context: a job's rounds each log under their own id, `job:<name>:<round>`, its error
 * line included; a pass woken inside a request keeps the request's id; lines outside any have none.
 */
import { describe, expect, it } from 'vitest';
import { collectLog } from '../test/log-lines.js';
import { boundChild, createLogger } from './logger.js';
import { inJobRound, withReqId } from './log-context.js';
import { pollLoop } from './poll-loop.js';

describe('the log context', () => {
  it('gives each round of a poll loop its own id, on its error line too', async () => {
    const log = collectLog();
    const logger = createLogger('debug', log.destination);
    let rounds = 0;
    let done: () => void = () => undefined;
    const third = new Promise<void>((resolve) => (done = resolve));
    const loop = pollLoop(
      async () => {
        rounds += 1;
        logger.debug({ round: rounds }, 'round');
        if (rounds === 2) throw new Error('round two failed');
        if (rounds === 3) done();
      },
      1,
      (error) => logger.error({ err: error }, 'poll test failed'),
      'log-context-test',
    );
    await third;
    await loop.stop();
    const lines = log.lines();
    expect(lines.filter((line) => line.msg === 'round').map((line) => line.reqId)).toEqual(['job:log-context-test:1', 'job:log-context-test:2', 'job:log-context-test:3']);
    expect(lines.find((line) => line.msg === 'poll test failed')?.reqId).toBe('job:log-context-test:2');
  });

  it('keeps the id of the request that woke a job, and adds none outside', async () => {
    const log = collectLog();
    const logger = createLogger('info', log.destination);
    await withReqId('woken-by-request', () => inJobRound('woken-test', async () => logger.info('woken pass')));
    await inJobRound('woken-test', async () => logger.info('timer pass'));
    logger.info('outside');
    const byMsg = Object.fromEntries(log.lines().map((line) => [line.msg, line.reqId]));
    expect(byMsg).toEqual({ 'woken pass': 'woken-by-request', 'timer pass': 'job:woken-test:1', outside: undefined });
  });

  it('names the id once on a request logger, which carries its own', () => {
    const log = collectLog();
    const logger = createLogger('info', log.destination);
    withReqId('context-id', () => boundChild(logger, { reqId: 'bound-id' }).info('request line'));
    expect(log.text().match(/"reqId"/g)).toHaveLength(1);
    expect(log.lines()[0]?.reqId).toBe('bound-id');
  });
});
