/**
 * Whose turn it is: the first agent after the one who got the last ticket (by id, wrapping
 * around) who is below the limit. Nobody when every candidate is at the limit.
 */
export function nextInTurn(options: { candidates: number[]; lastUserId: number | null; loads: Map<number, number>; maxPerAgent: number }): number | undefined {
  const sorted = [...options.candidates].sort((a, b) => a - b);
  const start = options.lastUserId === null ? 0 : sorted.findIndex((id) => id > (options.lastUserId ?? 0));
  const from = start === -1 ? 0 : start;
  for (let i = 0; i < sorted.length; i += 1) {
    const id = sorted[(from + i) % sorted.length];
    if (id !== undefined && (options.loads.get(id) ?? 0) < options.maxPerAgent) return id;
  }
  return undefined;
}
