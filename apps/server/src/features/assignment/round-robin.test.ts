import { describe, expect, it } from 'vitest';
import { nextInTurn } from './round-robin.js';

describe('nextInTurn', () => {
  const loads = new Map<number, number>();
  it('goes to the agent after the last one, wrapping around', () => {
    expect(nextInTurn({ candidates: [3, 7, 9], lastUserId: null, loads, maxPerAgent: 2 })).toBe(3);
    expect(nextInTurn({ candidates: [3, 7, 9], lastUserId: 3, loads, maxPerAgent: 2 })).toBe(7);
    expect(nextInTurn({ candidates: [3, 7, 9], lastUserId: 9, loads, maxPerAgent: 2 })).toBe(3);
    // The last one went offline: the next id after theirs.
    expect(nextInTurn({ candidates: [3, 9], lastUserId: 7, loads, maxPerAgent: 2 })).toBe(9);
  });
  it('skips agents at the limit, and finds nobody when all are', () => {
    expect(nextInTurn({ candidates: [3, 7, 9], lastUserId: 3, loads: new Map([[7, 2]]), maxPerAgent: 2 })).toBe(9);
    expect(
      nextInTurn({
        candidates: [3, 7],
        lastUserId: 3,
        loads: new Map([
          [3, 1],
          [7, 1],
        ]),
        maxPerAgent: 1,
      }),
    ).toBeUndefined();
    expect(nextInTurn({ candidates: [], lastUserId: null, loads, maxPerAgent: 1 })).toBeUndefined();
  });
});
