import { CHANNELS, CONNECTION_STATUSES, type Channel, type ConnectionStatus } from '@zapdesk/shared/domain';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import type { Db } from '../../core/db/database.js';
import { bool } from '../../core/db/sql-helpers.js';

export async function whatsappExists(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('whatsapps').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

function asChannel(value: string): Channel {
  return CHANNELS.find((c) => c === value) ?? 'whatsapp';
}

function asStatus(value: string): ConnectionStatus {
  return CONNECTION_STATUSES.find((s) => s === value) ?? 'DISCONNECTED';
}

export async function listWhatsapps(db: Db): Promise<TWhatsapp[]> {
  const rows = await db
    .selectFrom('whatsapps')
    .select(['id', 'name', 'channel', 'status', 'qrcode', 'retries', 'isDefault', 'greetingMessage', 'farewellMessage', 'createdAt', 'updatedAt'])
    .orderBy('name')
    .execute();
  const queues = rows.length
    ? await db
        .selectFrom('whatsappQueues')
        .innerJoin('queues', 'queues.id', 'whatsappQueues.queueId')
        .select(['whatsappQueues.whatsappId', 'queues.id', 'queues.name', 'queues.color'])
        .where('whatsappQueues.whatsappId', 'in', rows.map((r) => r.id))
        .execute()
    : [];
  return rows.map((r) => ({
    ...r,
    channel: asChannel(r.channel),
    status: asStatus(r.status),
    isDefault: bool(r.isDefault),
    queues: queues.filter((q) => q.whatsappId === r.id).map((q) => ({ id: q.id, name: q.name, color: q.color })),
  }));
}
