import type { TWhatsappInput } from '@zapdesk/shared/messaging';
import type { TWhatsapp } from '@zapdesk/shared/schemas';
import type { SessionManager } from '../../channels/session-manager.js';
import { saveInstagramConfig } from '../instagram/instagram.service.js';
import type { AppContext } from '../../core/context.js';
import { isUniqueViolation } from '../../core/db/database.js';
import { AppError } from '../../core/errors.js';
import { nowIso } from '../../core/time.js';
import { missingQueueIds } from '../queues/queues.repository.js';
import type { AuthUser } from '../users/users.repository.js';
import * as repo from './whatsapps.repository.js';

type WhatsappData = Required<Omit<TWhatsappInput, 'instagram'>> & Pick<TWhatsappInput, 'instagram'>;

/** The QR code links a phone to the product: only admins get it (the socket does the same). */
function seenBy(whatsapp: TWhatsapp, viewer: AuthUser): TWhatsapp {
  // The QR code pairs a phone: for those who may manage connections.
  return viewer.permissions.has('connectionsManage') ? whatsapp : { ...whatsapp, qrcode: '' };
}

export async function listWhatsappsFor(ctx: AppContext, viewer: AuthUser): Promise<TWhatsapp[]> {
  return (await repo.listWhatsapps(ctx.db)).map((w) => seenBy(w, viewer));
}

export async function getWhatsappFor(ctx: AppContext, viewer: AuthUser, id: number): Promise<TWhatsapp> {
  return seenBy(await getWhatsapp(ctx, id), viewer);
}

export async function getWhatsapp(ctx: AppContext, id: number): Promise<TWhatsapp> {
  const found = await repo.findWhatsappById(ctx.db, id);
  if (!found) throw new AppError('ERR_NO_WAPP_FOUND');
  return found;
}

async function check(ctx: AppContext, input: WhatsappData, exceptId?: number): Promise<void> {
  if (input.channel === 'simulator' && !ctx.config.simulator) throw new AppError('ERR_SIMULATOR_DISABLED');
  if (input.channel === 'instagram' && exceptId === undefined) {
    const missing = (['accountId', 'accessToken', 'appSecret', 'verifyToken'] as const).filter((key) => !input.instagram?.[key]);
    if (missing.length > 0) throw new AppError('ERR_IG_CONFIG_REQUIRED', { fields: Object.fromEntries(missing.map((key) => [`instagram.${key}`, 'REQUIRED'])) });
  }
  if (input.queueIds.length > 1 && input.greetingMessage.trim() === '') throw new AppError('ERR_WAPP_GREETING_REQUIRED');
  if ((await missingQueueIds(ctx.db, input.queueIds)).length > 0) throw new AppError('ERR_NO_QUEUE_FOUND');
  if (await repo.nameTaken(ctx.db, input.name, exceptId)) {
    throw new AppError('ERR_DUPLICATED_WAPP_NAME', { fields: { name: 'INVALID' } });
  }
}

async function publishAll(ctx: AppContext, ids: number[]): Promise<void> {
  for (const id of ids) {
    const whatsapp = await repo.findWhatsappById(ctx.db, id);
    if (whatsapp) ctx.events.publish('whatsapp.saved', { whatsapp });
  }
}

function guardName(error: unknown): never {
  if (isUniqueViolation(error, { table: 'whatsapps', column: 'name' })) {
    throw new AppError('ERR_DUPLICATED_WAPP_NAME', { fields: { name: 'INVALID' } });
  }
  throw error;
}

/** The first connection is the default whatever was asked: there is always exactly one. */
export async function createWhatsapp(ctx: AppContext, sessions: SessionManager, input: WhatsappData): Promise<TWhatsapp> {
  await check(ctx, input);
  const now = nowIso();
  let changed: number[] = [];
  const id = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const isDefault = input.isDefault || (await repo.countWhatsapps(trx)) === 0;
      const newId = await repo.insertWhatsapp(trx, { name: input.name, isDefault, greetingMessage: input.greetingMessage, farewellMessage: input.farewellMessage, channel: input.channel }, now);
      if (isDefault) changed = await repo.makeOnlyDefault(trx, newId, now);
      await repo.setWhatsappQueues(trx, newId, input.queueIds);
      return newId;
    })
    .catch(guardName);
  repo.connectionQueuesChanged();
  if (input.channel === 'instagram') {
    try {
      await saveInstagramConfig(ctx, id, input.instagram);
    } catch (error) {
      // Checked before anything else was stored; kept atomic by taking the row back.
      await repo.deleteWhatsapp(ctx.db, id);
      throw error;
    }
  }
  await publishAll(ctx, [id, ...changed]);
  await sessions.start(id).catch((error: unknown) => ctx.events.publish('channel.error', { whatsappId: id, error }));
  return getWhatsapp(ctx, id);
}

export async function updateWhatsapp(ctx: AppContext, sessions: SessionManager, id: number, input: WhatsappData): Promise<TWhatsapp> {
  const current = await getWhatsapp(ctx, id);
  await check(ctx, { ...input, channel: current.channel }, id);
  // An Instagram connection's account or secrets changed: stored, then the token checked again.
  if (current.channel === 'instagram' && input.instagram) {
    await saveInstagramConfig(ctx, id, input.instagram);
    await sessions.start(id).catch((error: unknown) => ctx.events.publish('channel.error', { whatsappId: id, error }));
  }
  if (current.isDefault && !input.isDefault) throw new AppError('ERR_NO_OTHER_WHATSAPP');
  const now = nowIso();
  let changed: number[] = [];
  await ctx.db
    .transaction()
    .execute(async (trx) => {
      await repo.updateWhatsapp(trx, id, { name: input.name, isDefault: input.isDefault, greetingMessage: input.greetingMessage, farewellMessage: input.farewellMessage }, now);
      if (input.isDefault) changed = await repo.makeOnlyDefault(trx, id, now);
      await repo.setWhatsappQueues(trx, id, input.queueIds);
    })
    .catch(guardName);
  repo.connectionQueuesChanged();
  await publishAll(ctx, [id, ...changed]);
  return getWhatsapp(ctx, id);
}

/** Deleting the default hands the flag to another connection; the session is logged out. */
export async function deleteWhatsapp(ctx: AppContext, sessions: SessionManager, id: number): Promise<void> {
  const current = await getWhatsapp(ctx, id);
  await sessions.logout(id).catch((error: unknown) => ctx.events.publish('channel.error', { whatsappId: id, error }));
  let changed: number[] = [];
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deleteWhatsapp(trx, id);
    const next = current.isDefault ? await repo.firstOtherWhatsappId(trx, id) : undefined;
    if (next !== undefined) changed = [next, ...(await repo.makeOnlyDefault(trx, next, nowIso()))];
  });
  repo.connectionQueuesChanged();
  ctx.events.publish('whatsapp.deleted', { whatsappId: id });
  await publishAll(ctx, changed);
}
