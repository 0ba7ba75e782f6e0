/**
 * Campaigns: a bulk send is stored recipient by recipient before anything goes out, then the
 * campaign sender (jobs/campaigns.job.ts) sends it at its pace. Who sees a campaign: admins all,
 * a user their own; sends through the API token act as an admin and have no author.
 */
import type { Permission } from '@zapdesk/shared/permissions';
import {
  CAMPAIGN_LIMITS,
  RESENDABLE_STATUSES,
  emptyCounts,
  parseRecipients,
  type CampaignAudience,
  type CampaignKind,
  type CampaignStatus,
  type RecipientStatus,
  type TCampaign,
  type TCampaignCreate,
  type TCampaignListQuery,
  type TCampaignUpdate,
} from '@zapdesk/shared/campaigns';
import { csvFile } from '@zapdesk/shared/csv';
import type { ErrorCode } from '@zapdesk/shared/errors';
import { CHANNELS, MEDIA_TYPES } from '@zapdesk/shared/domain';
import type { ReadNumber } from '@zapdesk/shared/phone-numbers';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { localDayBounds, nowIso } from '../../core/time.js';
import { typedNumberReader } from '../settings/typed-numbers.js';
import { labelRecipientLines } from '../labels/labels-campaign.js';
import { findWhatsappById, whatsappExists } from '../whatsapps/whatsapps.repository.js';
import { prepareFromLocalPath, prepareFromUrl, type PreparedMedia } from './campaign-media.js';
import * as repo from './campaigns.repository.js';
import * as recipients from './recipients.repository.js';

export const CAMPAIGNS_PAGE_SIZE = 20;
export const RECIPIENTS_PAGE_SIZE = 50;

/** Who acts: a signed-in user, or the tool API's token (admin rights, no author). */
/** Who starts or steers a send; `permissions`: what it may use (a token's scopes, a user's role; everything for an admin or the userApiToken). */
export type CampaignActor = { userId: number | null; admin: boolean; source: 'page' | 'api'; permissions: ReadonlySet<Permission> };

export function presentCampaign(row: repo.CampaignListRow, counts: TCampaign['counts']): TCampaign {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    id: row.id,
    kind: row.kind,
    audience: row.audience,
    whatsappId: row.whatsappId,
    whatsappName: row.whatsappName,
    channel: CHANNELS.find((c) => c === row.whatsappChannel) ?? null,
    sender: row.sender,
    userId: row.userId,
    userName: row.userName,
    source: row.source === 'api' ? 'api' : 'page',
    message: row.message,
    mediaName: row.mediaName,
    mediaType: MEDIA_TYPES.find((type) => type === row.mediaType) ?? null,
    minDelay: row.minDelay,
    maxDelay: row.maxDelay,
    status: row.status,
    pauseReason: row.pauseReason,
    note: row.note,
    scheduledAt: row.scheduledAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    createdAt: row.createdAt,
    total,
    counts,
  };
}

export async function loadCampaign(ctx: AppContext, id: number): Promise<TCampaign | undefined> {
  const row = await repo.campaignWithNames(ctx.db, id);
  if (!row) return undefined;
  const counts = await repo.recipientCounts(ctx.db, [id]);
  return presentCampaign(row, counts.get(id) ?? emptyCounts());
}

/** Publishes the campaign as it is now; the gateway sends it to admins and its author. */
export async function publishCampaign(ctx: AppContext, id: number): Promise<TCampaign | undefined> {
  const campaign = await loadCampaign(ctx, id);
  if (campaign) ctx.events.publish('campaign.saved', { campaign });
  return campaign;
}

/** A campaign its reader may see: an admin any, a user their own. */
export async function visibleCampaign(ctx: AppContext, actor: CampaignActor, id: number): Promise<repo.CampaignRow> {
  const row = await repo.findCampaign(ctx.db, id);
  if (!row || (!actor.admin && row.userId !== actor.userId)) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
  return row;
}

async function prepareMedia(ctx: AppContext, input: TCampaignCreate): Promise<PreparedMedia | undefined> {
  const voice = input.kind === 'voice';
  if (input.kind === 'mediaUrl' || (voice && input.mediaUrl)) return prepareFromUrl(ctx, input.mediaUrl ?? '', { voice });
  if (input.kind === 'mediaPath' || voice) return prepareFromLocalPath(ctx, input.mediaPath ?? '', { voice });
  return undefined;
}

export async function createCampaign(ctx: AppContext, actor: CampaignActor, input: TCampaignCreate): Promise<{ campaign: TCampaign; dropped: { blank: number; duplicates: number } }> {
  const connection = await findWhatsappById(ctx.db, input.whatsappId);
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND', { fields: { whatsappId: 'INVALID' } });
  // Phone numbers and files are WhatsApp's: Instagram sends go by username (/InstaDirect).
  if (connection.channel === 'instagram') throw new AppError('ERR_IG_NOT_SUPPORTED', { fields: { whatsappId: 'INVALID' } });
  const labelLines = input.labelId === undefined ? '' : await labelRecipientLines(ctx, actor, input.labelId);
  const lines = [input.numbers ?? '', labelLines].filter(Boolean).join('\n');
  const field = input.numbers?.trim() ? 'numbers' : 'labelId';
  const typed = typedRecipients(lines, { field, invalidError: 'ERR_WAPP_INVALID_CONTACT', read: await typedNumberReader(ctx) });
  // The file is fetched or read once, before anything is stored: a bad address stores nothing.
  const media = await prepareMedia(ctx, input);
  const campaign = await storeCampaign(ctx, actor, {
    kind: input.kind,
    audience: 'numbers',
    whatsappId: input.whatsappId,
    message: input.kind === 'voice' ? '' : input.message,
    media,
    pace: { minDelay: input.minDelay, maxDelay: input.maxDelay },
    scheduledAt: input.scheduledAt,
    recipients: typed.recipients,
  });
  return { campaign, dropped: typed.dropped };
}

/**
 * The recipients typed one per line, read by `read` (the number rule with the default country
 * code, see typed-numbers.ts): each queued, or invalid with `invalidError` when the line cannot
 * be one (never sent). None, or more than a campaign takes, is refused on `field` before
 * anything is stored.
 */
export function typedRecipients(
  text: string,
  options: { field: string; invalidError: ErrorCode | null; read: (typed: string) => ReadNumber | string | undefined },
): { recipients: recipients.RecipientInsert[]; dropped: { blank: number; duplicates: number } } {
  const parsed = parseRecipients(text, options.read);
  if (parsed.recipients.length === 0) throw new AppError('ERR_NO_RECIPIENTS', { fields: { [options.field]: 'REQUIRED' } });
  if (parsed.recipients.length > CAMPAIGN_LIMITS.maxRecipients) throw new AppError('ERR_TOO_MANY_RECIPIENTS', { fields: { [options.field]: 'TOO_BIG' } });
  return {
    recipients: parsed.recipients.map((r) => ({ input: r.input, number: r.number ?? null, groupId: null, status: r.number ? 'queued' : 'invalid', error: r.number ? null : options.invalidError })),
    dropped: { blank: parsed.blank, duplicates: parsed.duplicates },
  };
}

export type NewCampaign = {
  kind: CampaignKind;
  audience: CampaignAudience;
  /** null: SMS and calls, sent through the telephony provider. */
  whatsappId: number | null;
  /** SMS and calls: the number or name they come from. */
  sender?: string | undefined;
  /** Calls: the text-to-speech language. */
  language?: string | undefined;
  message: string;
  media: PreparedMedia | undefined;
  pace: { minDelay: number; maxDelay: number };
  /** ISO time; absent or past starts now. */
  scheduledAt?: string | undefined;
  recipients: recipients.RecipientInsert[];
};

/** Stores a campaign and all its recipients in one transaction, then lets the sender know. */
export async function storeCampaign(ctx: AppContext, actor: CampaignActor, input: NewCampaign): Promise<TCampaign> {
  const { media } = input;
  const now = nowIso();
  const scheduled = input.scheduledAt !== undefined && Date.parse(input.scheduledAt) > Date.now();
  const id = await ctx.db.transaction().execute(async (trx) => {
    const campaignId = await repo.insertCampaign(trx, {
      kind: input.kind,
      audience: input.audience,
      whatsappId: input.whatsappId,
      sender: input.sender ?? null,
      language: input.language ?? null,
      userId: actor.userId,
      source: actor.source,
      message: input.message,
      mediaPath: media?.mediaPath ?? null,
      mediaMimetype: media?.mimetype ?? null,
      mediaName: media?.name ?? null,
      mediaType: media?.mediaType ?? null,
      minDelay: input.pace.minDelay,
      maxDelay: input.pace.maxDelay,
      status: scheduled ? 'scheduled' : 'running',
      pauseReason: null,
      note: null,
      scheduledAt: scheduled && input.scheduledAt ? new Date(input.scheduledAt).toISOString() : null,
      startedAt: scheduled ? null : now,
      finishedAt: null,
      createdAt: now,
    });
    await recipients.insertRecipients(trx, campaignId, input.recipients, now);
    return campaignId;
  });
  // A campaign of invalid numbers only is over at once.
  await completeIfDone(ctx, id);
  const campaign = await publishCampaign(ctx, id);
  if (!campaign) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
  return campaign;
}

/** A running campaign with nothing left to send is completed. */
export async function completeIfDone(ctx: AppContext, id: number): Promise<boolean> {
  if ((await recipients.countRecipients(ctx.db, id, ['queued', 'sending'])) > 0) return false;
  const now = nowIso();
  return repo.updateCampaign(ctx.db, id, { status: 'completed', finishedAt: now, pauseReason: null }, { from: ['running'], now });
}

function listFilters(actor: CampaignActor, query: TCampaignListQuery): repo.CampaignFilters {
  return {
    from: query.from ? localDayBounds(query.from).start.toISOString() : undefined,
    to: query.to ? localDayBounds(query.to).end.toISOString() : undefined,
    whatsappId: query.whatsappId,
    status: query.status,
    number: query.number || undefined,
    scheduledOnly: query.scheduled === 'true',
    userId: actor.admin ? undefined : (actor.userId ?? -1),
  };
}

export async function listCampaigns(ctx: AppContext, actor: CampaignActor, query: TCampaignListQuery) {
  const offset = (query.pageNumber - 1) * CAMPAIGNS_PAGE_SIZE;
  const { rows, count } = await repo.listCampaigns(ctx.db, listFilters(actor, query), { limit: CAMPAIGNS_PAGE_SIZE, offset });
  const counts = await repo.recipientCounts(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { campaigns: rows.map((r) => presentCampaign(r, counts.get(r.id) ?? emptyCounts())), count, hasMore: offset + rows.length < count };
}

export async function getCampaign(ctx: AppContext, actor: CampaignActor, id: number): Promise<TCampaign> {
  await visibleCampaign(ctx, actor, id);
  const campaign = await loadCampaign(ctx, id);
  if (!campaign) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
  return campaign;
}

export async function listCampaignRecipients(ctx: AppContext, actor: CampaignActor, id: number, query: { pageNumber: number; status?: RecipientStatus | undefined; number?: string | undefined }) {
  await visibleCampaign(ctx, actor, id);
  const offset = (query.pageNumber - 1) * RECIPIENTS_PAGE_SIZE;
  const { rows, count } = await recipients.listRecipients(ctx.db, id, { status: query.status, number: query.number || undefined }, { limit: RECIPIENTS_PAGE_SIZE, offset });
  return {
    recipients: rows.map((r) => ({
      id: r.id,
      input: r.input,
      number: r.number,
      groupId: r.groupId,
      status: r.status,
      error: r.error,
      providerId: r.providerId,
      delivery: r.delivery,
      sentAt: r.sentAt,
      updatedAt: r.updatedAt,
    })),
    count,
    hasMore: offset + rows.length < count,
  };
}

/** Moves a campaign from one of `from` to `to`, or ERR_CAMPAIGN_STATE. */
async function transition(ctx: AppContext, id: number, from: readonly CampaignStatus[], patch: repo.CampaignPatch): Promise<void> {
  if (!(await repo.updateCampaign(ctx.db, id, patch, { from, now: nowIso() }))) throw new AppError('ERR_CAMPAIGN_STATE');
}

export async function pauseCampaign(ctx: AppContext, actor: CampaignActor, id: number): Promise<TCampaign> {
  await visibleCampaign(ctx, actor, id);
  await transition(ctx, id, ['running'], { status: 'paused', pauseReason: 'user' });
  return getCampaign(ctx, actor, id);
}

export async function resumeCampaign(ctx: AppContext, actor: CampaignActor, id: number): Promise<TCampaign> {
  await visibleCampaign(ctx, actor, id);
  await transition(ctx, id, ['paused'], { status: 'running', pauseReason: null });
  await completeIfDone(ctx, id);
  return (await publishCampaign(ctx, id)) ?? getCampaign(ctx, actor, id);
}

/** Cancels a campaign: what was not sent yet is cancelled; what is being sent finishes. */
export async function cancelCampaign(ctx: AppContext, actor: CampaignActor, id: number): Promise<TCampaign> {
  await visibleCampaign(ctx, actor, id);
  const now = nowIso();
  await transition(ctx, id, ['scheduled', 'running', 'paused'], { status: 'cancelled', pauseReason: null, finishedAt: now });
  await recipients.moveRecipients(ctx.db, id, { from: ['queued'], to: 'cancelled' }, now);
  return (await publishCampaign(ctx, id)) ?? getCampaign(ctx, actor, id);
}

/** The failed and unknown recipients go again; a finished campaign runs again for them. */
export async function resendCampaign(ctx: AppContext, actor: CampaignActor, id: number): Promise<TCampaign> {
  const row = await visibleCampaign(ctx, actor, id);
  const now = nowIso();
  const moved = await ctx.db.transaction().execute(async (trx) => {
    const count = await recipients.moveRecipients(trx, id, { from: RESENDABLE_STATUSES, to: 'queued', clear: true }, now);
    if (count > 0 && (row.status === 'completed' || row.status === 'cancelled')) {
      await repo.updateCampaign(trx, id, { status: 'running', finishedAt: null, pauseReason: null }, { from: ['completed', 'cancelled'], now });
    }
    return count;
  });
  if (moved === 0) throw new AppError('ERR_CAMPAIGN_STATE', { message: 'No failed or unknown recipient to send again.' });
  return (await publishCampaign(ctx, id)) ?? getCampaign(ctx, actor, id);
}

/** A scheduled campaign's time, text and pace can change until it starts. */
export async function updateCampaign(ctx: AppContext, actor: CampaignActor, id: number, input: TCampaignUpdate): Promise<TCampaign> {
  const row = await visibleCampaign(ctx, actor, id);
  const minDelay = input.minDelay ?? row.minDelay;
  const maxDelay = input.maxDelay ?? row.maxDelay;
  if (maxDelay < minDelay) throw new AppError('ERR_VALIDATION', { fields: { maxDelay: 'LESS_THAN_MIN' } });
  const now = nowIso();
  const startNow = input.scheduledAt === null || (input.scheduledAt !== undefined && Date.parse(input.scheduledAt) <= Date.now());
  await transition(ctx, id, ['scheduled'], {
    minDelay,
    maxDelay,
    ...(input.message !== undefined && row.kind !== 'voice' ? { message: input.message } : {}),
    ...(startNow ? { status: 'running', startedAt: now } : input.scheduledAt ? { scheduledAt: new Date(input.scheduledAt).toISOString() } : {}),
  });
  return (await publishCampaign(ctx, id)) ?? getCampaign(ctx, actor, id);
}

/** The scheduled sends page's DISPARAR: every campaign scheduled for that day on that connection starts now. */
export async function startScheduledOfDay(ctx: AppContext, actor: CampaignActor, whatsappId: number, day: string): Promise<number[]> {
  if (!(await whatsappExists(ctx.db, whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND', { fields: { ticketwhatsappId: 'INVALID' } });
  const { start, end } = localDayBounds(day);
  const ids = await repo.scheduledCampaignsBetween(ctx.db, whatsappId, start.toISOString(), end.toISOString(), actor.admin ? undefined : (actor.userId ?? -1));
  const started: number[] = [];
  for (const id of ids) {
    const now = nowIso();
    if (await repo.updateCampaign(ctx.db, id, { status: 'running', startedAt: now }, { from: ['scheduled'], now })) {
      started.push(id);
      await publishCampaign(ctx, id);
    }
  }
  return started;
}

/** zdg.csv of the history: one line per recipient of the campaigns the filters find. */
export async function exportCampaignsCsv(ctx: AppContext, actor: CampaignActor, query: Omit<TCampaignListQuery, 'pageNumber'>): Promise<string> {
  const rows: (string | number | null)[][] = [['campaign', 'kind', 'connection', 'author', 'created', 'status', 'number_typed', 'number', 'group', 'recipient_status', 'error', 'sent_at']];
  const filters = listFilters(actor, { ...query, pageNumber: 1 });
  for (let page = 0; ; page += 1) {
    const { rows: campaigns } = await repo.listCampaigns(ctx.db, filters, { limit: 100, offset: page * 100 });
    for (const c of campaigns) {
      for await (const batch of recipients.allRecipients(ctx.db, c.id)) {
        for (const r of batch) rows.push([c.id, c.kind, c.whatsappName, c.userName ?? 'API', c.createdAt, c.status, r.input, r.number, r.groupId, r.status, r.error, r.sentAt]);
      }
    }
    if (campaigns.length < 100) break;
  }
  return csvFile(rows);
}
