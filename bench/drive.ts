/**
 * A load driver for requests that differ on every call (autocannon repeats one request): reads
 * `{ base, connections, requests: [{ path, token }] }` as JSON on stdin, sends each request once
 * over `connections` keep-alive connections, and writes every request's status and latency as
 * JSON on stdout. It runs in its own process, like autocannon, so it takes no CPU from the server.
 *
 *   echo '{"base":"http://127.0.0.1:3000","connections":1,"requests":[...]}' | tsx bench/drive.ts
 */
import http from 'node:http';

type Input = { base: string; connections: number; requests: { path: string; token: string }[] };
export type DriveOutput = { seconds: number; results: { path: string; status: number; ms: number; count: number | null }[] };

async function main(): Promise<void> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  const input = JSON.parse(text) as Input;
  const agent = new http.Agent({ keepAlive: true, maxSockets: input.connections });
  const base = new URL(input.base);
  const results = new Array<DriveOutput['results'][number]>(input.requests.length);
  const send = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const request = input.requests[index];
      if (!request) return resolve();
      const started = performance.now();
      const req = http.get({ host: base.hostname, port: base.port, path: request.path, agent, headers: { authorization: `Bearer ${request.token}` } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const ms = performance.now() - started;
          let count: number | null = null;
          try {
            const parsed = JSON.parse(body) as { count?: unknown };
            if (typeof parsed.count === 'number') count = parsed.count;
          } catch {
            // Not JSON: the status tells.
          }
          results[index] = { path: request.path, status: res.statusCode ?? 0, ms: Number(ms.toFixed(2)), count };
          resolve();
        });
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: input.connections }, async () => {
      while (next < input.requests.length) await send(next++);
    }),
  );
  const output: DriveOutput = { seconds: (performance.now() - started) / 1000, results };
  agent.destroy();
  process.stdout.write(JSON.stringify(output));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
