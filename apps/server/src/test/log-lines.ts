/** A log destination that keeps every line the server writes, each parsed as JSON (a line that is not JSON fails the test that reads it). */
export type LogLine = { level: number; msg?: string; reqId?: string; [key: string]: unknown };

export function collectLog(): { destination: { write: (line: string) => void }; text: () => string; lines: () => LogLine[] } {
  const written: string[] = [];
  return {
    destination: { write: (chunk: string) => void written.push(chunk) },
    text: () => written.join(''),
    lines: () =>
      written
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as LogLine),
  };
}

/** pino's numbers for the levels. */
export const LEVEL = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
