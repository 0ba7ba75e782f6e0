/**
 * Instagram: an Instagram connection's configuration (the secrets sealed at rest, write-only),
 * Meta's webhook (the subscription check with the verify token, deliveries signed with the app
 * secret), and direct messages to usernames as campaigns.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { normalizeUsername, type TDirectCreate, type TInstagramConfigInput } from '@zapdesk/shared/instagram';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import { InstagramDriver, IG_AUTH_TYPE, IG_CONFIG_KEY, readInstagramConfig, writeInstagramState, type InstagramConfig } from '../../channels/instagram/instagram.driver.js';
import { parseIgWebhookBody } from '../../channels/instagram/webhook-body.js';
import { RemoteDriver } from '../../channels/remote-driver.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { seal } from '../../core/secret-box.js';
import { nowIso } from '../../core/time.js';
import { storeCampaign, typedRecipients, type CampaignActor } from '../campaigns/campaigns.service.js';
import type { RecipientInsert } from '../campaigns/recipients.repository.js';
import { DbChannelAuthStore } from '../whatsapps/channel-auth.repository.js';
import { findWhatsappById, whatsappIdsOfChannel } from '../whatsapps/whatsapps.repository.js';

type IgParticipant = { id: string; username: string };

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Stores a connection's Instagram configuration. A secret left empty keeps the one stored;
 * adding a connection needs all of them (ERR_IG_CONFIG_REQUIRED).
 */
export async function saveInstagramConfig(ctx: AppContext, whatsappId: number, input: TInstagramConfigInput | undefined): Promise<void> {
  const auth = new DbChannelAuthStore(ctx.db, whatsappId);
  const current = await readInstagramConfig(auth, ctx.secrets.settingsKey);
  if (!input && current) return;
  const next: Partial<InstagramConfig> = {
    accountId: input?.accountId ?? current?.accountId,
    accessToken: input?.accessToken || current?.accessToken,
    appSecret: input?.appSecret || current?.appSecret,
    verifyToken: input?.verifyToken || current?.verifyToken,
  };
  if (!next.accountId || !next.accessToken || !next.appSecret || !next.verifyToken) {
    const fields = Object.fromEntries((['accountId', 'accessToken', 'appSecret', 'verifyToken'] as const).filter((key) => !next[key]).map((key) => [`instagram.${key}`, 'REQUIRED']));
    throw new AppError('ERR_IG_CONFIG_REQUIRED', { fields });
  }
  const config = next as InstagramConfig;
  await auth.set([{ type: IG_AUTH_TYPE, id: IG_CONFIG_KEY, value: seal(ctx.secrets.settingsKey, JSON.stringify(config)) }]);
  const changedAccount = current?.accountId !== config.accountId || current.accessToken !== config.accessToken;
  await writeInstagramState(auth, { accountId: config.accountId, ...(changedAccount ? { username: null, tokenValid: null, error: null } : {}) });
}

/** The Instagram connections with their configuration, for the webhook. */
async function instagramConnections(ctx: AppContext): Promise<{ whatsappId: number; config: InstagramConfig }[]> {
  const found: { whatsappId: number; config: InstagramConfig }[] = [];
  for (const whatsappId of await whatsappIdsOfChannel(ctx.db, 'instagram')) {
    const config = await readInstagramConfig(new DbChannelAuthStore(ctx.db, whatsappId), ctx.secrets.settingsKey);
    if (config) found.push({ whatsappId, config });
  }
  return found;
}

/**
 * Meta's subscription check: `hub.challenge` is answered when `hub.verify_token` is the verify
 * token of an Instagram connection (which records when it was verified); 403 otherwise.
 */
export async function verifySubscription(ctx: AppContext, query: { mode?: string | undefined; verifyToken?: string | undefined; challenge?: string | undefined }): Promise<string> {
  if (query.mode !== 'subscribe' || !query.verifyToken || !query.challenge) throw new AppError('ERR_NO_PERMISSION');
  const verifyToken = query.verifyToken;
  const matching = (await instagramConnections(ctx)).filter((c) => sameText(c.config.verifyToken, verifyToken));
  if (matching.length === 0) throw new AppError('ERR_NO_PERMISSION');
  for (const { whatsappId, config } of matching) {
    await writeInstagramState(new DbChannelAuthStore(ctx.db, whatsappId), { accountId: config.accountId, webhookVerifiedAt: nowIso() });
    const whatsapp = await findWhatsappById(ctx.db, whatsappId);
    if (whatsapp) ctx.events.publish('whatsapp.saved', { whatsapp });
  }
  return query.challenge;
}

/** `X-Hub-Signature-256: sha256=<hex>`: the HMAC-SHA256 of the raw body with the app secret. */
export function validSignature(rawBody: string, header: string | undefined, appSecret: string): boolean {
  const given = /^sha256=([0-9a-f]{64})$/i.exec(header ?? '')?.[1];
  if (!given) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody, 'utf8').digest('hex');
  return sameText(given.toLowerCase(), expected);
}

/**
 * A delivery of Meta's webhook. The signature comes first, over the bytes as received: a body
 * no connection's app secret signed is refused (401) before it is read at all. A signed body
 * that is not a delivery's shape is refused (400). It must also be signed with the app secret of
 * every account it speaks for; then every message is stored before this resolves (Meta delivers
 * again what is not acknowledged). Entries for an account no connection holds are ignored.
 */
export async function receiveWebhook(ctx: AppContext, sessions: SessionManager, rawBody: string, signature: string | undefined): Promise<void> {
  const connections = await instagramConnections(ctx);
  const signedBy = connections.filter((c) => validSignature(rawBody, signature, c.config.appSecret));
  if (signedBy.length === 0) throw new AppError('ERR_WEBHOOK_SIGNATURE');
  const body = parseIgWebhookBody(rawBody);
  if (!body) throw new AppError('ERR_VALIDATION', { message: 'The body is not a delivery of the Instagram webhook.' });
  const known = body.entry.flatMap((entry) => {
    const connection = connections.find((c) => c.config.accountId === entry.id);
    return connection ? [{ entry, connection }] : [];
  });
  // Signed by one account's secret, a delivery cannot speak for another account.
  if (!known.every((e) => signedBy.includes(e.connection))) throw new AppError('ERR_WEBHOOK_SIGNATURE');
  if (body.object !== 'instagram') return;
  for (const { entry, connection } of known) {
    const messaging = entry.messaging ?? [];
    // Handed to the node that runs the connection's session (this one, or another in the cluster mode).
    const driver = await sessions.use(connection.whatsappId);
    if (driver instanceof RemoteDriver && driver.connected) await driver.call('deliver', messaging);
    else if (driver instanceof InstagramDriver && driver.connected) await driver.deliver(messaging);
    else throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  }
}

/** The Instagram connection a direct send goes through: the one named, else the first one. */
async function directConnection(ctx: AppContext, sessions: SessionManager, whatsappId: number | undefined): Promise<{ whatsappId: number; participants: () => Promise<IgParticipant[]> }> {
  const ids = await whatsappIdsOfChannel(ctx.db, 'instagram');
  const id = whatsappId ?? ids[0];
  if (id === undefined || !ids.includes(id)) throw new AppError('ERR_NO_IG_CONNECTION', { fields: { whatsappId: 'INVALID' } });
  const driver = await sessions.use(id);
  if (!driver?.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  // The account's conversations, asked of the node that runs the session.
  const participants = driver instanceof RemoteDriver ? () => driver.call<IgParticipant[]>('participants') : driver instanceof InstagramDriver ? () => driver.participants() : undefined;
  if (!participants) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  return { whatsappId: id, participants };
}

/**
 * Direct messages to usernames, as a campaign paced like Instagram asks (5–15 s). A username is
 * found among the account's conversations: Instagram lets a business message only people who
 * wrote to it first; anyone else is recorded as not sent (ERR_IG_UNKNOWN_USER) and nothing goes to them.
 */
export async function createDirectCampaign(
  ctx: AppContext,
  sessions: SessionManager,
  actor: CampaignActor,
  input: Pick<TDirectCreate, 'users' | 'message' | 'scheduledAt'> & { whatsappId?: number | undefined },
): Promise<{ campaign: TCampaign; dropped: { blank: number; duplicates: number } }> {
  const { whatsappId, participants } = await directConnection(ctx, sessions, input.whatsappId);
  // A line that cannot be a username is invalid; a username nobody wrote from, not reachable.
  const typed = typedRecipients(input.users, { field: 'users', invalidError: null, read: normalizeUsername });
  const known = new Map((await participants()).map((p) => [p.username, p.id]));
  const recipients: RecipientInsert[] = typed.recipients.map((r) => {
    const username = r.number;
    const igsid = username ? known.get(username) : undefined;
    if (igsid) return { ...r, input: `@${username ?? ''}`, number: igsid };
    return { ...r, number: null, status: 'invalid', error: username ? 'ERR_IG_UNKNOWN_USER' : null };
  });
  const campaign = await storeCampaign(ctx, actor, {
    kind: 'text',
    audience: 'numbers',
    whatsappId,
    message: input.message,
    media: undefined,
    pace: ctx.config.instagramPace,
    scheduledAt: input.scheduledAt,
    recipients,
  });
  return { campaign, dropped: typed.dropped };
}
