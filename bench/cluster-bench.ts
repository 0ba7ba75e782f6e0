/**
 * The cluster under load: three node processes on one PostgreSQL database and one Redis, 500
 * authenticated sockets spread over them, customers writing in at 200 messages/s to the node that
 * runs the simulated phone's session (--phone-at any: through every node, the others handing the
 * messages over), and the
 * time from a customer's message to the event at an agent's socket on another node. Part-way,
 * the node running the phone is killed (SIGKILL): the phone keeps delivering, trying again until
 * a node takes each message, as WhatsApp does until the device acknowledges it. At the end the
 * database is counted: messages lost (accepted, not stored) and duplicated.
 *
 *   npm run bench:cluster [-- --rate 200 --seconds 30 --kill-at 10 --sockets 500 --phone-at owner|any]
 *
 * Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a
 * fresh database is made and dropped) and Redis (REDIS_URL, default redis://127.0.0.1:6379).
 * Results in bench/results/cluster.json.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Socket } from 'socket.io-client';
import { benchDatabase } from './bench-database.js';
import { api, keepAlive, openSocket } from './cluster-client.js';
import { cpuSnapshot, percentile, perMessage, perMessageCounts, queryAll, queryOne, readCounts, type Counts, type CpuSnapshot } from './cluster-measure.js';
import { startClusterNodes, type ClusterNode } from './cluster-nodes.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '30' },
    'kill-at': { type: 'string', default: '10' },
    sockets: { type: 'string', default: '500' },
    watchers: { type: 'string', default: '20' },
    contacts: { type: 'string', default: '500' },
    /** Where the result goes (a short run while working: elsewhere than results/cluster.json). */
    out: { type: 'string', default: path.join(import.meta.dirname, 'results', 'cluster.json') },
    /** A CPU profile of each node into this folder (node --cpu-prof); use a kill-at past the end, a killed node writes none. */
    profile: { type: 'string' },
    /** Count what each node does per message (bench/cluster-count.ts). */
    count: { type: 'boolean', default: false },
    /** The phone gives a message up this many seconds after its first try: past capacity, tries grow with the backlog. */
    'give-up-after': { type: 'string', default: '90' },
    /**
     * Where the phone delivers: 'owner', to the node that runs its session (as WhatsApp's
     * servers reach the one node holding the device's socket; after the kill, the node the lease
     * names next), or 'any', to the nodes in turn, each handing the message over to the owner
     * (the path of a webhook behind a load balancer, and of this benchmark's runs before 2026-12-01).
     */
    'phone-at': { type: 'string', default: 'owner' },
  },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const killAt = Number(values['kill-at']);
const socketCount = Number(values.sockets);
const watcherCount = Number(values.watchers);
const contacts = Number(values.contacts);
const giveUpAfterMs = Number(values['give-up-after']) * 1000;
const phoneAt = values['phone-at'];
if (phoneAt !== 'owner' && phoneAt !== 'any') throw new Error(`--phone-at: owner or any, not ${phoneAt}`);
const ADMIN = { email: 'admin@bench.local', password: 'bench-pass' };

async function main(): Promise<void> {
  const database = await benchDatabase('postgres');
  const databaseUrl = database.url ?? '';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-cluster-bench-'));
  const countDir = path.join(dir, 'counts');
  if (values.count) fs.mkdirSync(countDir);
  const nodes = await startClusterNodes({
    nodeArgs: [...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values.profile)}`] : []), ...(values.count ? ['--import', path.join(import.meta.dirname, 'cluster-count.ts')] : [])],
    count: 3,
    basePort: 9300,
    dir,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `zapdesk-bench-${randomBytes(4).toString('hex')}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      JWT_REFRESH_SECRET: randomBytes(32).toString('hex'),
      SECRETS_KEY: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SIMULATOR: 'on',
      LOG_LEVEL: process.env.CLUSTER_BENCH_LOG ? 'warn' : 'error',
      LOGIN_RATE_LIMIT: '100000',
      WEB_DIST: path.join(dir, 'no-web'),
      CLUSTER_COUNT_DIR: countDir,
      CLUSTER_COUNT_SQL: process.env.CLUSTER_COUNT_SQL,
    },
    // The nodes' own output, when asked for (CLUSTER_BENCH_LOG=file).
    ...(process.env.CLUSTER_BENCH_LOG ? { output: (line: string) => fs.appendFileSync(process.env.CLUSTER_BENCH_LOG ?? '', `${line}\n`) } : {}),
  });
  const [first] = nodes as [ClusterNode];
  const sockets: Socket[] = [];
  try {
    const { token } = (await api<{ token: string }>(first, 'POST', '/api/auth/login', undefined, ADMIN)).body;
    // The phone is linked on node-1, which therefore runs it. Its conversations go to the
    // queue 'Vendas' (its only queue); the plain agents are in another queue.
    const sales = (await api<{ id: number }>(first, 'POST', '/api/queue', token, { name: 'Vendas', color: '#0a7d5a', greetingMessage: '' })).body;
    const whatsappId = (await api<{ id: number }>(first, 'POST', '/api/whatsapp', token, { name: 'Bench', channel: 'simulator', queueIds: [sales.id] })).body.id;
    await api(first, 'POST', `/api/simulator/${whatsappId}/scan`, token);
    const owner = (await queryOne<{ owner: string }>(databaseUrl, `select owner from leases where name = 'session:${whatsappId}'`))?.owner ?? 'node-1';
    const ownerNode = nodes.find((n) => n.name === owner) as ClusterNode;
    const others = nodes.filter((n) => n !== ownerNode);

    // Agents: a few admins who see every conversation (the watchers, on the nodes that do not run
    // the phone), and the rest plain agents of another queue than these conversations', signed
    // in ten times over; all connected, authenticated and in their rooms.
    const queue = (await api<{ id: number }>(first, 'POST', '/api/queue', token, { name: 'Outra fila', color: '#336699', greetingMessage: '' })).body;
    const agentTokens: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const email = `agent${i}@bench.local`;
      await api(first, 'POST', '/api/users', token, { name: `Agente ${i}`, email, password: 'agent-pass', profile: 'user', queueIds: [queue.id] });
      agentTokens.push((await api<{ token: string }>(nodes[i % nodes.length] as ClusterNode, 'POST', '/api/auth/login', undefined, { email, password: 'agent-pass' })).body.token);
    }
    const watchers: Socket[] = [];
    for (let i = 0; i < socketCount; i += 1) {
      const isWatcher = i < watcherCount;
      const node = isWatcher ? (others[i % others.length] as ClusterNode) : (nodes[i % nodes.length] as ClusterNode);
      const socket = await openSocket(node, isWatcher ? token : (agentTokens[i % agentTokens.length] as string));
      sockets.push(socket);
      if (isWatcher) watchers.push(socket);
    }

    const sentAt = new Map<string, number>();
    const latencies: { at: number; ms: number }[] = [];
    const seen = new Map<string, number>();
    const watcher = watchers[0] as Socket;
    let watcherDropped: string | undefined;
    watcher.on('disconnect', (reason) => (watcherDropped = String(reason)));
    watcher.on('appMessage', (payload: { action: string; message: { body: string } }) => {
      const body = payload.message.body;
      // A message's first event, whatever its action: one stored by the killed node before it
      // could announce it is announced again, as an update, when the phone delivers it again.
      if (payload.action !== 'create' && seen.has(body)) return;
      seen.set(body, (seen.get(body) ?? 0) + 1);
      const started = sentAt.get(body);
      if (started !== undefined && seen.get(body) === 1) latencies.push({ at: started, ms: performance.now() - started });
    });

    // The phone: each message goes to the nodes in turn; refused or unanswered, it is tried
    // again (on the next node) until one takes it, or given up after --give-up-after seconds.
    let turn = 0;
    const accepted = new Set<string>();
    const gaveUp = new Set<string>();
    // Each try's answer (0: no answer within 10 s, or the connection failed), for the result.
    const tries = new Map<string, number>();
    // --phone-at owner: the node the session's lease names, read again (at most every 100 ms)
    // while that node does not answer.
    let ownerNow = ownerNode;
    let ownerReadAt = 0;
    const phoneNode = async (): Promise<ClusterNode> => {
      if (ownerNow.child.exitCode === null && ownerNow.child.signalCode === null) return ownerNow;
      if (performance.now() - ownerReadAt < 100) return ownerNow;
      ownerReadAt = performance.now();
      const named = (await queryOne<{ owner: string }>(databaseUrl, `select owner from leases where name = 'session:${whatsappId}'`))?.owner;
      ownerNow = nodes.find((n) => n.name === named) ?? ownerNow;
      return ownerNow;
    };
    const deliver = async (id: string, body: string, contact: number) => {
      const firstTry = performance.now();
      for (;;) {
        if (performance.now() - firstTry > giveUpAfterMs) {
          gaveUp.add(id);
          return;
        }
        const node = phoneAt === 'owner' ? await phoneNode() : (nodes[turn % nodes.length] as ClusterNode);
        turn += 1;
        if (node.child.exitCode === null && node.child.signalCode === null) {
          const res = await api(node, 'POST', `/api/simulator/${whatsappId}/inbound`, token, { id, from: `55119${String(20000000 + contact)}`, name: `Cliente ${contact}`, body }).catch(
            (error: unknown) => ({ status: 0, error }),
          );
          const code = 'body' in res && res.status !== 200 ? (res.body as { error?: string } | null)?.error : undefined;
          const answer = 'error' in res ? `failed: ${res.error instanceof Error ? res.error.message : String(res.error)}` : `${res.status}${code ? ` ${code}` : ''}`;
          tries.set(answer, (tries.get(answer) ?? 0) + 1);
          if (res.status === 200) {
            if (id.startsWith('bench-')) accepted.add(id);
            return;
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    // Warm-up: every contact's ticket exists before the measure, made 20 at a time (all at once,
    // on a busy machine, the phone's tries time out and come again faster than they are served).
    for (let i = 0; i < contacts; i += 20) await Promise.all(Array.from({ length: Math.min(20, contacts - i) }, (_, j) => deliver(`warm-${i + j}`, `warm ${i + j}`, i + j)));

    const total = rate * seconds;
    const interval = 1000 / rate;
    // The CPU each process spends in the measure before the kill (or the whole measure without
    // one), the client's event-loop delay, and the nodes' counts (--count) over the same window.
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const cpuAtStart = await cpuSnapshot(databaseUrl, nodes);
    const countsAtStart = await readCounts(countDir, nodes);
    let cpuAtKill: CpuSnapshot | undefined;
    let countsAtKill: Counts | undefined;
    let sentBeforeKill = total;
    const start = performance.now();
    // The measure's window on the monotonic clock of the nodes' CPU profiles (--profile), in µs.
    const windowStartUs = Number(process.hrtime.bigint() / 1000n);
    let windowEndUs: number | undefined;
    const pending: Promise<void>[] = [];
    let killedAt: number | undefined;
    for (let i = 0; i < total; i += 1) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (killedAt === undefined && performance.now() - start >= killAt * 1000) {
        loopDelay.disable();
        cpuAtKill = await cpuSnapshot(databaseUrl, nodes);
        countsAtKill = await readCounts(countDir, nodes);
        sentBeforeKill = i;
        windowEndUs = Number(process.hrtime.bigint() / 1000n);
        killedAt = performance.now();
        // At once: on a busy machine the rest of the run can take long.
        const { p50, p99 } = { p50: loopDelay.percentile(50) / 1e6, p99: loopDelay.percentile(99) / 1e6 };
        const soFar = latencies.map((l) => l.ms).sort((a, b) => a - b);
        process.stderr.write(
          `before the kill (${i} messages, loadavg ${os
            .loadavg()
            .map((l) => l.toFixed(2))
            .join(
              ' ',
            )}): ${JSON.stringify({ cpuMs: perMessage(cpuAtStart, cpuAtKill, i), counts: countsAtKill ? perMessageCounts(countsAtStart, countsAtKill, i) : undefined, clientEventLoopDelayMs: { p50, p99 }, latencySoFar: { n: soFar.length, p50: percentile(soFar, 50), p99: percentile(soFar, 99) } })}\n`,
        );
        ownerNode.child.kill('SIGKILL');
      }
      const body = `bench ${i}`;
      sentAt.set(body, performance.now());
      pending.push(deliver(`bench-${i}`, body, i % contacts));
    }
    await Promise.all(pending);
    if (!cpuAtKill) {
      windowEndUs = Number(process.hrtime.bigint() / 1000n);
      loopDelay.disable();
      cpuAtKill = await cpuSnapshot(databaseUrl, nodes);
      countsAtKill = await readCounts(countDir, nodes);
    }
    const until = performance.now() + 60_000;
    while (latencies.length < total && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));

    const stored = await queryOne<{ rows: string; distinct: string }>(databaseUrl, `select count(*) as rows, count(distinct "providerId") as distinct from messages where "providerId" like 'bench-%'`);
    const storedIds = new Set((await queryAll<{ providerId: string }>(databaseUrl, `select "providerId" from messages where "providerId" like 'bench-%'`)).map((r) => r.providerId));
    const lost = [...accepted].filter((id) => !storedIds.has(id)).length;
    const duplicated = Number(stored?.rows ?? 0) - Number(stored?.distinct ?? 0) + [...seen.values()].filter((n) => n > 1).length;
    const killTime = killedAt ?? Infinity;
    const before = latencies.filter((l) => l.at + l.ms < killTime).map((l) => l.ms);
    const all = latencies.map((l) => l.ms);
    const takenAt = await queryOne<{ owner: string; generation: number }>(databaseUrl, `select owner, generation from leases where name = 'session:${whatsappId}'`);
    // The first message sent after the kill that reached the watcher: when the phone worked again.
    const backAt = latencies.filter((l) => l.at >= killTime).sort((a, b) => a.at + a.ms - (b.at + b.ms))[0];
    const sortAsc = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const result = {
      benchmark: 'cluster',
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? '', node: process.version, loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))) },
      setup: {
        nodes: nodes.length,
        database: 'postgres',
        sockets: sockets.length,
        watchers: watchers.length,
        note: "Watchers are admins on the two nodes that do not run the phone (latency is read on one of them); the other sockets are plain agents of another queue than the phone's, connected and in their rooms.",
        ratePerSecond: rate,
        seconds,
        messages: total,
        contacts,
        phoneRunsOn: owner,
        phoneDeliversTo: phoneAt === 'owner' ? 'the node running its session' : 'the nodes in turn (handed over to the owner)',
        killedAtSecond: killAt,
      },
      latency: {
        beforeKill: { messages: before.length, p50Ms: percentile(sortAsc(before), 50), p99Ms: percentile(sortAsc(before), 99) },
        wholeRun: { messages: all.length, p50Ms: percentile(sortAsc(all), 50), p99Ms: percentile(sortAsc(all), 99), maxMs: percentile(sortAsc(all), 100) },
        note: 'From the first try to deliver a message to its event at an agent socket on another node. The whole run includes the messages that waited out the take-over.',
      },
      perMessageBeforeKill: {
        messages: sentBeforeKill,
        cpuMs: perMessage(cpuAtStart, cpuAtKill, sentBeforeKill),
        counts: countsAtKill ? perMessageCounts(countsAtStart, countsAtKill, sentBeforeKill) : undefined,
        clientEventLoopDelayMs: { p50: Number((loopDelay.percentile(50) / 1e6).toFixed(1)), p99: Number((loopDelay.percentile(99) / 1e6).toFixed(1)), max: Number((loopDelay.max / 1e6).toFixed(1)) },
        profileWindowUs: values.profile ? [windowStartUs, windowEndUs] : undefined,
        note: 'CPU milliseconds each process spent per message sent, from the start of the measure to the kill (PostgreSQL: the backends of this database; Redis: the whole server, shared with anything else using it); counts with --count.',
      },
      takeover: { newOwner: takenAt?.owner, generation: takenAt?.generation, phoneBackAfterMs: backAt ? Math.round(backAt.at + backAt.ms - killTime) : null },
      watcher: { node: others[0]?.name, disconnected: watcherDropped ?? null },
      messages: {
        accepted: accepted.size,
        stored: Number(stored?.distinct ?? 0),
        lost,
        duplicated,
        eventsAtWatcher: latencies.length,
        // The messages whose event the watcher never heard (the first 20), to set beside the kill's message number.
        notAtWatcher: [...sentAt.keys()].filter((body) => !seen.has(body)).slice(0, 20),
        killedAtMessage: killedAt === undefined ? null : sentBeforeKill,
        // Not accepted by any node within --give-up-after seconds of the first try: the cluster
        // was past its capacity (the phone's tries were not served in time), not a message lost.
        gaveUp: gaveUp.size,
        gaveUpAfterSeconds: giveUpAfterMs / 1000,
        triesByAnswer: Object.fromEntries(tries),
      },
      targets: { p99Ms: 100, lost: 0, duplicated: 0 },
      pass: { p99BeforeKill: percentile(sortAsc(before), 99) < 100, lost: lost === 0, duplicated: duplicated === 0 },
    };
    fs.mkdirSync(path.dirname(values.out), { recursive: true });
    fs.writeFileSync(values.out, JSON.stringify(result, null, 2) + '\n');
    console.log(JSON.stringify(result, null, 2));
  } finally {
    keepAlive.destroy();
    for (const socket of sockets) socket.close();
    for (const node of nodes) if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGTERM');
    await Promise.all(nodes.map((node) => node.exited));
    fs.rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
