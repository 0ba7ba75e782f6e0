/**
 * The agent's Working-on list while the inbound pipeline ingests 200 messages a second, in the
 * same process, on a copy of a SQLite seed: how long the event loop is blocked (perf_hooks'
 * monitorEventLoopDelay) and what one list request takes, one at a time every 20 ms.
 *
 *   npx tsx --conditions=source bench/ingest-loop-probe.ts --file /tmp/copy/zapdesk.sqlite [--seconds 10]
 */
import path from 'node:path';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { buildApp } from '@zapdesk/server/app';
import { SimulatorDriver } from '@zapdesk/server/channels/simulator/simulator.driver';
import { loadConfig } from '@zapdesk/server/core/config';
import { agentEmail, SEED } from './seed.js';

const { values } = parseArgs({ options: { file: { type: 'string' }, seconds: { type: 'string', default: '10' } } });
const file = values.file ?? '';
const built = await buildApp(loadConfig({ DATA_DIR: path.dirname(file), ADMIN_EMAIL: SEED.adminEmail, ADMIN_PASSWORD: SEED.password, LOG_LEVEL: 'error', SIMULATOR: 'on' }));
const login = await built.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: agentEmail(1), password: SEED.password } });
const agent = login.json<{ token: string; user: { queues: { id: number }[] } }>();
const listUrl = `/api/tickets?${new URLSearchParams({ pageNumber: '1', showAll: 'false', status: 'open', isGroup: 'false', queueIds: JSON.stringify(agent.user.queues.map((q) => q.id)) }).toString()}`;
const list = () => built.app.inject({ method: 'GET', url: listUrl, headers: { authorization: `Bearer ${agent.token}` } });

await built.sessions.start(1);
const phone = built.sessions.driver(1);
if (!(phone instanceof SimulatorDriver)) throw new Error('the seed connection is not on the simulator');
const simulator: SimulatorDriver = phone;
for (let tries = 0; ; tries += 1) {
  try {
    await simulator.scan();
    break;
  } catch (error) {
    if (tries > 50) throw error;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const reader = new SQLite(file, { readonly: true });
const writers = reader
  .prepare(`select c.number, c.name from tickets t join contacts c on c.id = t."contactId" where t.status in ('open', 'pending') and t."isGroup" = 0 and t."whatsappId" = 1 order by t.id limit 500`)
  .all() as { number: string; name: string }[];
reader.close();

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
async function phase(ingest: boolean, seconds = Number(values.seconds)) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const started = performance.now();
  let delivered = 0;
  const timer = ingest
    ? setInterval(() => {
        const due = Math.floor(((performance.now() - started) / 1000) * 200);
        for (; delivered < due; delivered += 1) {
          const writer = writers[delivered % writers.length];
          if (!writer) break;
          void simulator.deliver({
            providerId: `probe-${Date.now()}-${delivered}`,
            chat: { kind: 'person', number: writer.number },
            sender: { number: writer.number, name: writer.name },
            fromMe: false,
            body: `Mensagem ${delivered}`,
            timestamp: new Date(),
          });
        }
      }, 20)
    : undefined;
  delay.enable();
  const ms: number[] = [];
  while (performance.now() - started < seconds * 1000) {
    const t0 = performance.now();
    const res = await list();
    if (res.statusCode !== 200) throw new Error(res.body);
    ms.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  delay.disable();
  if (timer) clearInterval(timer);
  ms.sort((a, b) => a - b);
  return {
    ingest,
    delivered,
    requests: ms.length,
    listP50Ms: Number(percentile(ms, 0.5).toFixed(1)),
    listP99Ms: Number(percentile(ms, 0.99).toFixed(1)),
    loopDelayP99Ms: Number((delay.percentile(99) / 1e6).toFixed(1)),
    loopDelayMaxMs: Number((delay.max / 1e6).toFixed(1)),
  };
}
// A warm-up first: run from source, the first messages load (and compile) the pipeline's modules.
await phase(true, 3);
console.log(JSON.stringify(await phase(false)));
console.log(JSON.stringify(await phase(true)));
console.log(JSON.stringify({ loadavg: os.loadavg().map((n) => Number(n.toFixed(2))) }));
// What was delivered is written before closing.
await new Promise((r) => setTimeout(r, 1000));
await built.close();
