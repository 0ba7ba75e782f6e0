/** The value at position ⌈p·n⌉ (1-based, integer arithmetic) of the n values sorted, for each percent. */
export function nearestRanks(values: number[], percents: readonly number[]): { count: number; values: (number | null)[] } {
  const sorted = Float64Array.from(values).sort();
  const count = sorted.length;
  return { count, values: percents.map((percent) => (count === 0 ? null : (sorted[Math.floor((percent * count + 99) / 100) - 1] ?? null))) };
}
