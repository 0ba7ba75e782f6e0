/** Campaign rows: the send's settings, its state and its place in the history. */
import { sql, type Selectable } from 'kysely';
import {
  CAMPAIGN_AUDIENCES,
  CAMPAIGN_KINDS,
  CAMPAIGN_STATUSES,
  emptyCounts,
  RECIPIENT_STATUSES,
  type CampaignAudience,
  type CampaignKind,
  type CampaignStatus,
  type RecipientCounts,
} from '@zapdesk/shared/campaigns';
import type { Db } from '../../core/db/database.js';
import type { CampaignsTable } from '../../core/db/schema.js';

type Typed = { status: CampaignStatus; kind: CampaignKind; audience: CampaignAudience };
export type CampaignRow = Omit<Selectable<CampaignsTable>, keyof Typed> & Typed;

export type CampaignInsert = Omit<Selectable<CampaignsTable>, 'id' | 'updatedAt' | keyof Typed> & Typed;

function toRow(r: Selectable<CampaignsTable>): CampaignRow {
  return {
    ...r,
    status: CAMPAIGN_STATUSES.find((s) => s === r.status) ?? 'cancelled',
    kind: CAMPAIGN_KINDS.find((k) => k === r.kind) ?? 'text',
    audience: CAMPAIGN_AUDIENCES.find((a) => a === r.audience) ?? 'numbers',
  };
}

export async function insertCampaign(db: Db, data: CampaignInsert): Promise<number> {
  const row = await db
    .insertInto('campaigns')
    .values({ ...data, updatedAt: data.createdAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findCampaign(db: Db, id: number): Promise<CampaignRow | undefined> {
  const row = await db.selectFrom('campaigns').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRow(row);
}

export type CampaignPatch = Partial<Pick<CampaignsTable, 'pauseReason' | 'note' | 'scheduledAt' | 'startedAt' | 'finishedAt' | 'message' | 'minDelay' | 'maxDelay'>> & { status?: CampaignStatus };

/** Changes a campaign only while it is in one of `from`: false when it had moved on. */
export async function updateCampaign(db: Db, id: number, patch: CampaignPatch, options: { from: readonly CampaignStatus[]; now: string }): Promise<boolean> {
  const result = await db
    .updateTable('campaigns')
    .set({ ...patch, updatedAt: options.now })
    .where('id', '=', id)
    .where('status', 'in', options.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Campaigns of a connection in one state (the disconnect pause and its end). */
export async function campaignIdsOfConnection(db: Db, whatsappId: number | null, status: CampaignStatus, pauseReason?: string): Promise<number[]> {
  let query = db
    .selectFrom('campaigns')
    .select('id')
    .where('whatsappId', whatsappId === null ? 'is' : '=', whatsappId)
    .where('status', '=', status);
  if (pauseReason !== undefined) query = query.where('pauseReason', '=', pauseReason);
  return (await query.orderBy('id').execute()).map((r) => r.id);
}

/** The lanes with a running campaign: connection ids, and null for SMS and calls. */
export async function connectionsWithRunningCampaigns(db: Db): Promise<(number | null)[]> {
  const rows = await db.selectFrom('campaigns').select('whatsappId').distinct().where('status', '=', 'running').execute();
  return rows.map((r) => r.whatsappId);
}

/** Scheduled campaigns whose time has come. */
export async function dueScheduledCampaigns(db: Db, now: string): Promise<CampaignRow[]> {
  const rows = await db.selectFrom('campaigns').selectAll().where('status', '=', 'scheduled').where('scheduledAt', '<=', now).orderBy('scheduledAt').orderBy('id').execute();
  return rows.map(toRow);
}

/** Scheduled campaigns of a connection for one day, given as the [from, to) instants of that day. */
export async function scheduledCampaignsBetween(db: Db, whatsappId: number, from: string, to: string, userId?: number): Promise<number[]> {
  let query = db.selectFrom('campaigns');
  if (userId !== undefined) query = query.where('userId', '=', userId);
  const rows = await query.select('id').where('whatsappId', '=', whatsappId).where('status', '=', 'scheduled').where('scheduledAt', '>=', from).where('scheduledAt', '<', to).execute();
  return rows.map((r) => r.id);
}

export type CampaignFilters = {
  from?: string | undefined;
  to?: string | undefined;
  whatsappId?: number | undefined;
  status?: CampaignStatus | undefined;
  /** Digits: campaigns with a recipient whose number contains them. */
  number?: string | undefined;
  /** Only scheduled ones (scheduled sends page), or all. */
  scheduledOnly?: boolean | undefined;
  /** A plain user sees their own campaigns only. */
  userId?: number | undefined;
};

export type CampaignListRow = CampaignRow & { whatsappName: string; whatsappChannel: string | null; userName: string | null };

export async function listCampaigns(db: Db, filters: CampaignFilters, page: { limit: number; offset: number }): Promise<{ rows: CampaignListRow[]; count: number }> {
  let query = db.selectFrom('campaigns').leftJoin('whatsapps', 'whatsapps.id', 'campaigns.whatsappId').leftJoin('users', 'users.id', 'campaigns.userId');
  if (filters.from) query = query.where('campaigns.createdAt', '>=', filters.from);
  if (filters.to) query = query.where('campaigns.createdAt', '<', filters.to);
  if (filters.whatsappId) query = query.where('campaigns.whatsappId', '=', filters.whatsappId);
  if (filters.status) query = query.where('campaigns.status', '=', filters.status);
  if (filters.scheduledOnly) query = query.where('campaigns.scheduledAt', 'is not', null);
  if (filters.userId) query = query.where('campaigns.userId', '=', filters.userId);
  const number = filters.number;
  if (number) {
    query = query.where((eb) =>
      eb.exists(
        eb.selectFrom('campaignRecipients').select(sql.lit(1).as('one')).whereRef('campaignRecipients.campaignId', '=', 'campaigns.id').where('campaignRecipients.number', 'like', `%${number}%`),
      ),
    );
  }
  const [rows, total] = await Promise.all([
    query
      .selectAll('campaigns')
      .select(['whatsapps.name as whatsappName', 'whatsapps.channel as whatsappChannel', 'users.name as userName'])
      .orderBy('campaigns.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ ...toRow(r), whatsappName: r.whatsappName ?? '', whatsappChannel: r.whatsappChannel, userName: r.userName })), count: Number(total.count) };
}

export async function campaignWithNames(db: Db, id: number): Promise<CampaignListRow | undefined> {
  const row = await db
    .selectFrom('campaigns')
    .leftJoin('whatsapps', 'whatsapps.id', 'campaigns.whatsappId')
    .leftJoin('users', 'users.id', 'campaigns.userId')
    .selectAll('campaigns')
    .select(['whatsapps.name as whatsappName', 'whatsapps.channel as whatsappChannel', 'users.name as userName'])
    .where('campaigns.id', '=', id)
    .executeTakeFirst();
  return row && { ...toRow(row), whatsappName: row.whatsappName ?? '', whatsappChannel: row.whatsappChannel, userName: row.userName };
}

/** Recipients per status of each campaign. */
export async function recipientCounts(db: Db, campaignIds: number[]): Promise<Map<number, RecipientCounts>> {
  const counts = new Map<number, RecipientCounts>(campaignIds.map((id) => [id, emptyCounts()]));
  if (campaignIds.length === 0) return counts;
  const rows = await db
    .selectFrom('campaignRecipients')
    .select(['campaignId', 'status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('campaignId', 'in', campaignIds)
    .groupBy(['campaignId', 'status'])
    .execute();
  for (const row of rows) {
    const status = RECIPIENT_STATUSES.find((s) => s === row.status);
    const entry = counts.get(row.campaignId);
    if (status && entry) entry[status] = Number(row.count);
  }
  return counts;
}
