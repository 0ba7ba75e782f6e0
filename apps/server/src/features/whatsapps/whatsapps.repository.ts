import { CHANNELS, CONNECTION_STATUSES, type Channel, type ConnectionStatus } from '@zapdesk/shared/domain';
import type { TInstagramState } from '@zapdesk/shared/instagram';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import type { Db } from '../../core/db/database.js';
import { configCache } from '../../core/db/config-cache.js';
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

const columns = ['id', 'name', 'channel', 'status', 'qrcode', 'retries', 'isDefault', 'greetingMessage', 'farewellMessage', 'createdAt', 'updatedAt'] as const;

async function withQueues(
  db: Db,
  rows: {
    id: number;
    name: string;
    channel: string;
    status: string;
    qrcode: string;
    retries: number;
    isDefault: number;
    greetingMessage: string;
    farewellMessage: string;
    createdAt: string;
    updatedAt: string;
  }[],
): Promise<TWhatsapp[]> {
  const queues = rows.length
    ? await queuesOfConnections(
        db,
        rows.map((r) => r.id),
      )
    : new Map<number, ConnectionQueue[]>();
  const instagram = await instagramStates(
    db,
    rows.filter((r) => r.channel === 'instagram').map((r) => r.id),
  );
  return rows.map((r) => {
    const state = instagram.get(r.id);
    return {
      ...r,
      channel: asChannel(r.channel),
      status: asStatus(r.status),
      isDefault: bool(r.isDefault),
      queues: (queues.get(r.id) ?? []).map((q) => ({ id: q.id, name: q.name, color: q.color })),
      ...(state ? { instagram: state } : {}),
    };
  });
}

/**
 * What the connections page shows of Instagram connections: the state the driver and the
 * webhook keep in clear (channelAuth 'instagram'/'state'), and whether the sealed secrets are
 * stored ('config'); never a secret itself.
 */
async function instagramStates(db: Db, ids: number[]): Promise<Map<number, TInstagramState>> {
  const states = new Map<number, TInstagramState>();
  if (ids.length === 0) return states;
  const rows = await db.selectFrom('channelAuth').select(['whatsappId', 'keyId', 'value']).where('whatsappId', 'in', ids).where('type', '=', 'instagram').execute();
  for (const id of ids) {
    const configured = rows.some((r) => r.whatsappId === id && r.keyId === 'config');
    const stateRow = rows.find((r) => r.whatsappId === id && r.keyId === 'state');
    let state: Partial<TInstagramState> = {};
    try {
      state = stateRow ? (JSON.parse(stateRow.value) as Partial<TInstagramState>) : {};
    } catch {
      state = {};
    }
    states.set(id, {
      accountId: state.accountId ?? '',
      username: state.username ?? null,
      accessTokenSet: configured,
      appSecretSet: configured,
      verifyTokenSet: configured,
      tokenValid: state.tokenValid ?? null,
      webhookVerifiedAt: state.webhookVerifiedAt ?? null,
      error: state.error ?? null,
    });
  }
  return states;
}

/** Connections of a channel (the Instagram webhook looks its account up among these). */
export async function whatsappIdsOfChannel(db: Db, channel: Channel): Promise<number[]> {
  return (await db.selectFrom('whatsapps').select('id').where('channel', '=', channel).orderBy('id').execute()).map((r) => r.id);
}

export async function listWhatsapps(db: Db): Promise<TWhatsapp[]> {
  return withQueues(db, await db.selectFrom('whatsapps').select(columns).orderBy('name').orderBy('id').execute());
}

export async function findWhatsappById(db: Db, id: number): Promise<TWhatsapp | undefined> {
  const [found] = await withQueues(db, await db.selectFrom('whatsapps').select(columns).where('id', '=', id).execute());
  return found;
}

type ConnectionQueue = { id: number; name: string; color: string; greetingMessage: string };

/** The queues of the given connections (every connection's without ids), each in menu order. */
async function queuesOfConnections(db: Db, whatsappIds?: number[]): Promise<Map<number, ConnectionQueue[]>> {
  let query = db
    .selectFrom('whatsappQueues')
    .innerJoin('queues', 'queues.id', 'whatsappQueues.queueId')
    .select(['whatsappQueues.whatsappId', 'queues.id', 'queues.name', 'queues.color', 'queues.greetingMessage'])
    .orderBy('queues.name')
    .orderBy('queues.id');
  if (whatsappIds) query = query.where('whatsappQueues.whatsappId', 'in', whatsappIds);
  const byConnection = new Map<number, ConnectionQueue[]>();
  for (const { whatsappId, ...queue } of await query.execute()) {
    const list = byConnection.get(whatsappId);
    if (list) list.push(queue);
    else byConnection.set(whatsappId, [queue]);
  }
  return byConnection;
}

/**
 * Every connection's queues, read in one statement and kept for a moment: the pipeline reads them
 * for each batch of messages. A change made on this node applies at once (its writers call
 * connectionQueuesChanged once committed); one made on another node within CONFIG_CACHE_MS.
 * API reads (withQueues) are not kept, so a connection read through the API is exact on every node.
 */
const connectionQueues = configCache((db) => queuesOfConnections(db));

/** Queues of a connection with their greetings, in menu order. */
export async function listConnectionQueues(db: Db, whatsappId: number): Promise<ConnectionQueue[]> {
  return (await connectionQueues.read(db)).get(whatsappId) ?? [];
}

/** After a committed change of a connection's queues, or of a queue's name, colour or greeting. */
export function connectionQueuesChanged(): void {
  connectionQueues.changed();
}

export async function countWhatsapps(db: Db): Promise<number> {
  const row = await db
    .selectFrom('whatsapps')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function nameTaken(db: Db, name: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('whatsapps').select('id').where('name', '=', name);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export type WhatsappWrite = { name: string; isDefault: boolean; greetingMessage: string; farewellMessage: string; channel: Channel };

export async function insertWhatsapp(db: Db, data: WhatsappWrite, now: string): Promise<number> {
  const row = await db
    .insertInto('whatsapps')
    .values({ ...data, isDefault: data.isDefault ? 1 : 0, status: 'OPENING', qrcode: '', retries: 0, leaseOwner: null, leaseUntil: null, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateWhatsapp(db: Db, id: number, data: Omit<WhatsappWrite, 'channel'>, now: string): Promise<void> {
  await db
    .updateTable('whatsapps')
    .set({ ...data, isDefault: data.isDefault ? 1 : 0, updatedAt: now })
    .where('id', '=', id)
    .execute();
}

/** Makes `id` the only default connection. */
export async function makeOnlyDefault(db: Db, id: number, now: string): Promise<number[]> {
  const others = await db.selectFrom('whatsapps').select('id').where('isDefault', '=', 1).where('id', '!=', id).execute();
  if (others.length)
    await db
      .updateTable('whatsapps')
      .set({ isDefault: 0, updatedAt: now })
      .where(
        'id',
        'in',
        others.map((o) => o.id),
      )
      .execute();
  await db.updateTable('whatsapps').set({ isDefault: 1 }).where('id', '=', id).execute();
  return others.map((o) => o.id);
}

export async function firstOtherWhatsappId(db: Db, exceptId: number): Promise<number | undefined> {
  const row = await db.selectFrom('whatsapps').select('id').where('id', '!=', exceptId).orderBy('id').executeTakeFirst();
  return row?.id;
}

export async function setWhatsappQueues(db: Db, whatsappId: number, queueIds: number[]): Promise<void> {
  await db.deleteFrom('whatsappQueues').where('whatsappId', '=', whatsappId).execute();
  if (queueIds.length)
    await db
      .insertInto('whatsappQueues')
      .values([...new Set(queueIds)].map((queueId) => ({ whatsappId, queueId })))
      .execute();
}

export async function deleteWhatsapp(db: Db, id: number): Promise<void> {
  await db.deleteFrom('whatsapps').where('id', '=', id).execute();
}

export async function updateSessionState(db: Db, id: number, state: { status?: ConnectionStatus; qrcode?: string; retries?: number }, now: string): Promise<void> {
  await db
    .updateTable('whatsapps')
    .set({ ...state, updatedAt: now })
    .where('id', '=', id)
    .execute();
}

/**
 * When the running session of a connection was opened, or null once it was closed cleanly: a
 * value found at start means the previous process stopped without closing it (a crash).
 */
export async function findSessionOpenSince(db: Db, id: number): Promise<string | null> {
  const row = await db.selectFrom('whatsapps').select('sessionOpenSince').where('id', '=', id).executeTakeFirst();
  return row?.sessionOpenSince ?? null;
}

export async function setSessionOpenSince(db: Db, id: number, since: string | null): Promise<void> {
  await db.updateTable('whatsapps').set({ sessionOpenSince: since }).where('id', '=', id).execute();
}

export async function findDefaultWhatsappId(db: Db): Promise<number | undefined> {
  const row = await db.selectFrom('whatsapps').select('id').where('isDefault', '=', 1).executeTakeFirst();
  return row?.id;
}
