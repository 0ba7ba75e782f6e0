/**
 * DEMO=on: a simulated phone, already linked, and customers who write in now and then, so a
 * newcomer sees a live inbox without a phone. Everything goes through the real pipeline.
 */
import { randomBytes } from 'node:crypto';
import type { SessionManager } from '../channels/session-manager.js';
import { SimulatorDriver } from '../channels/simulator/simulator.driver.js';
import type { AppContext } from '../core/context.js';
import { nowIso } from '../core/time.js';
import { findQueueIdByName, insertQueue } from '../features/queues/queues.repository.js';
import { listWhatsapps } from '../features/whatsapps/whatsapps.repository.js';
import { createWhatsapp } from '../features/whatsapps/whatsapps.service.js';

const DEMO_CONNECTION = 'Demo phone';

const CUSTOMERS = [
  { number: '5511987650001', name: 'João Silva' },
  { number: '5521987650002', name: 'Maria Conceição' },
  { number: '5531987650003', name: 'Ana Luíza' },
  { number: '5541987650004', name: 'Pedro Araújo' },
  { number: '5551987650005', name: 'Fernanda Gonçalves' },
  { number: '5561987650006', name: 'Lucas Câmara' },
];

const LINES = [
  'Olá! Gostaria de saber o status do meu pedido.',
  'Bom dia, vocês entregam no sábado?',
  'Preciso da segunda via do boleto, por favor.',
  'O produto chegou com defeito, como faço a troca?',
  'Qual o horário de atendimento?',
  'Obrigado pela ajuda!',
  'Vocês aceitam Pix?',
  '1',
  '2',
];

function pick<T>(items: readonly T[]): T {
  const item = items[randomBytes(1)[0]! % items.length];
  if (item === undefined) throw new Error('empty list');
  return item;
}

export async function startDemo(ctx: AppContext, sessions: SessionManager): Promise<() => void> {
  let connection = (await listWhatsapps(ctx.db)).find((w) => w.name === DEMO_CONNECTION);
  if (!connection) {
    const queueIds: number[] = [];
    for (const [name, color, greeting] of [
      ['Vendas', '#008B02', 'Olá {{name}}! Um vendedor já vai te atender.'],
      ['Suporte', '#1273DE', '{{ms}}, {{name}}! O suporte vai responder em instantes.'],
    ] as const) {
      queueIds.push((await findQueueIdByName(ctx.db, name)) ?? (await insertQueue(ctx.db, { name, color, greetingMessage: greeting }, nowIso())).id);
    }
    connection = await createWhatsapp(ctx, sessions, {
      name: DEMO_CONNECTION,
      channel: 'simulator',
      isDefault: true,
      greetingMessage: '{{ms}}! Bem-vindo à loja demo. Escolha um setor:',
      farewellMessage: 'Obrigado pelo contato, {{name}}!',
      queueIds,
    });
  }
  const driver = sessions.driver(connection.id);
  if (driver instanceof SimulatorDriver && !driver.connected && driver.qr) await driver.scan();
  await sessions.settled(connection.id);
  // A few groups the demo phone is in, for the group tools.
  if (driver instanceof SimulatorDriver && driver.groups().length === 0) {
    const members = CUSTOMERS.map((c) => ({ number: c.number, admin: false }));
    driver.addGroup({ subject: 'Clientes VIP', description: 'Ofertas antes de todo mundo', phoneIsAdmin: true, participants: members.slice(0, 4) });
    driver.addGroup({ subject: 'Revendedores', phoneIsAdmin: true, participants: members.slice(2) });
    driver.addGroup({ subject: 'Avisos do shopping', announce: true, phoneIsAdmin: false, participants: [{ number: '5511912340000', admin: true }, ...members.slice(0, 2)] });
  }

  const id = connection.id;
  const timer = setInterval(() => {
    const current = sessions.driver(id);
    if (!(current instanceof SimulatorDriver) || !current.connected) return;
    const customer = pick(CUSTOMERS);
    void current
      .deliver({
        providerId: `DEMO${randomBytes(8).toString('hex').toUpperCase()}`,
        chat: { kind: 'person', number: customer.number },
        sender: customer,
        fromMe: false,
        body: pick(LINES),
        timestamp: new Date(),
      })
      .catch((error: unknown) => ctx.events.publish('channel.error', { whatsappId: id, error }));
  }, ctx.config.demoIntervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
