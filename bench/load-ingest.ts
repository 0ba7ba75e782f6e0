/**
 * The inbound pipeline under bench:load: the seed's connection goes up on the simulator and its
 * contacts write `rate` messages a second into their tickets (the same path as a phone's
 * messages: contact, ticket, message, events) while `during` measures on the same database.
 */
import { SimulatorDriver } from '@zapdesk/server/channels/simulator/simulator.driver';
import type { buildApp } from '@zapdesk/server/app';

type Built = Awaited<ReturnType<typeof buildApp>>;

export async function whileIngesting<T>(options: {
  built: Built;
  query: <R>(text: string) => Promise<R[]>;
  rate: number;
  during: () => Promise<T>;
}): Promise<{ result: T; delivered: number; stored: number; seconds: number }> {
  const { built, query, rate } = options;
  await built.sessions.start(1);
  const phone = built.sessions.driver(1);
  if (!(phone instanceof SimulatorDriver)) throw new Error('the seed connection is not on the simulator');
  for (let tries = 0; ; tries += 1) {
    try {
      await phone.scan();
      break;
    } catch (error) {
      if (tries > 50) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const writers = await query<{ number: string; name: string }>(
    `select c.number, c.name from tickets t join contacts c on c.id = t."contactId" where t.status in ('open', 'pending') and t."isGroup" = 0 and t."whatsappId" = 1 order by t.id limit 500`,
  );
  let delivered = 0;
  const started = performance.now();
  const timer = setInterval(() => {
    // Due so far at the rate, sent in one go (timers in a busy process fire late).
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    for (; delivered < due; delivered += 1) {
      const writer = writers[delivered % writers.length];
      if (!writer) break;
      void phone.deliver({
        providerId: `ingest-${delivered}`,
        chat: { kind: 'person', number: writer.number },
        sender: { number: writer.number, name: writer.name },
        fromMe: false,
        body: `Mensagem ${delivered} durante a carga`,
        timestamp: new Date(),
      });
    }
  }, 20);
  let result: T;
  try {
    result = await options.during();
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 1000));
  const [stored] = await query<{ n: number }>(`select count(*) as n from messages where "providerId" like 'ingest-%'`);
  return { result, delivered, stored: Number(stored?.n), seconds };
}
