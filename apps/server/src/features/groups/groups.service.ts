/**
 * Group tools: the groups of a connection as the network knows them now, creating a group, and
 * the actions on many groups (rename, describe, open, close, message in them, private message to
 * their participants). An action is a campaign whose recipients are the groups (or the
 * participants): stored first, then done by the campaign sender at the group pace, one group at
 * a time, with a result per group.
 */
import { isGroupActionKind, parseRecipients, type CampaignKind, type SendKind, type TCampaign } from '@zapdesk/shared/campaigns';
import { groupActionFieldsMatch, type TGroup, type TGroupAction, type TGroupCreated, type GroupToolAction } from '@zapdesk/shared/groups';
import type { ChannelDriver, GroupInfo } from '../../channels/channel.js';
import type { SessionManager } from '../../channels/session-manager.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { prepareFromLocalPath, prepareFromUrl, type PreparedMedia } from '../campaigns/campaign-media.js';
import { storeCampaign, type CampaignActor } from '../campaigns/campaigns.service.js';
import type { RecipientInsert } from '../campaigns/recipients.repository.js';
import { visibleContactNumbers } from '../contacts/contacts.service.js';
import { typedNumberReader } from '../settings/typed-numbers.js';
import type { AuthUser } from '../users/users.repository.js';
import { whatsappExists } from '../whatsapps/whatsapps.repository.js';

/** The connection's live driver, or why there is none. */
async function connectedDriver(ctx: AppContext, sessions: SessionManager, whatsappId: number): Promise<ChannelDriver> {
  if (!(await whatsappExists(ctx.db, whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND', { fields: { whatsappId: 'INVALID' } });
  const driver = await sessions.use(whatsappId);
  if (!driver?.connected) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  return driver;
}

export function presentGroup(info: GroupInfo): TGroup {
  return {
    id: info.groupId,
    subject: info.subject,
    description: info.description,
    size: info.participants.length,
    isAdmin: info.participants.some((p) => p.me && p.admin),
    announce: info.announce,
    restrict: info.restrict,
  };
}

/** Every group of the connection, by name. */
export async function listGroups(ctx: AppContext, sessions: SessionManager, whatsappId: number): Promise<TGroup[]> {
  const driver = await connectedDriver(ctx, sessions, whatsappId);
  const groups = await driver.listGroups();
  return groups.map(presentGroup).sort((a, b) => a.subject.localeCompare(b.subject) || a.id.localeCompare(b.id));
}

/**
 * Creates a group with the connection's number as admin. Members typed one per line follow the
 * bulk number rule (the Brazilian 9); picked contacts are taken as stored. What could not be
 * added is answered with the reason: not a number, no account, or refused by the network.
 * Contacts are picked by a signed-in user, among those they may see.
 */
export async function createGroup(
  ctx: AppContext,
  sessions: SessionManager,
  input: { whatsappId: number; title: string; participants: string; picked?: { by: AuthUser; contactIds: number[] } | undefined },
): Promise<TGroupCreated> {
  const driver = await connectedDriver(ctx, sessions, input.whatsappId);
  const parsed = parseRecipients(input.participants, await typedNumberReader(ctx));
  const picked = input.picked ? await visibleContactNumbers(ctx, input.picked.by, input.picked.contactIds) : [];
  const failed: TGroupCreated['failed'] = [];
  const numbers: string[] = [];
  const typedAs = new Map<string, string>();
  for (const r of parsed.recipients) {
    if (!r.number) failed.push({ input: r.input, number: null, error: 'ERR_WAPP_INVALID_CONTACT' });
    else if (!typedAs.has(r.number)) {
      typedAs.set(r.number, r.input);
      numbers.push(r.number);
    }
  }
  for (const c of picked) {
    if (!typedAs.has(c.number)) {
      typedAs.set(c.number, c.name);
      numbers.push(c.number);
    }
  }
  if (numbers.length === 0) throw new AppError('ERR_NO_RECIPIENTS', { message: 'Give at least one member: numbers one per line, or contacts.', fields: { participants: 'REQUIRED' } });
  const created = await driver.createGroup(input.title, numbers);
  for (const f of created.failed) failed.push({ input: typedAs.get(f.number) ?? f.number, number: f.number, error: f.error });
  const added = created.group.participants.filter((p) => !p.me).map((p) => p.number);
  return { group: presentGroup(created.group), added, failed };
}

type ActionPlan = { kind: CampaignKind; audience: 'groups' | 'participants'; message: string };

function planOf(action: GroupToolAction, input: TGroupAction): ActionPlan {
  const sendKind: SendKind = input.mediaUrl?.trim() ? 'mediaUrl' : input.mediaPath?.trim() ? 'mediaPath' : 'text';
  switch (action) {
    case 'subject':
      return { kind: 'groupSubject', audience: 'groups', message: (input.subject ?? '').trim() };
    case 'description':
      return { kind: 'groupDescription', audience: 'groups', message: (input.description ?? '').trim() };
    case 'open':
      return { kind: 'groupOpen', audience: 'groups', message: '' };
    case 'close':
      return { kind: 'groupClose', audience: 'groups', message: '' };
    case 'message':
      return { kind: sendKind, audience: 'groups', message: input.message ?? '' };
    case 'participants':
      return { kind: sendKind, audience: 'participants', message: input.message ?? '' };
  }
}

async function prepareMedia(ctx: AppContext, plan: ActionPlan, input: TGroupAction): Promise<PreparedMedia | undefined> {
  if (plan.kind === 'mediaUrl') return prepareFromUrl(ctx, input.mediaUrl?.trim() ?? '', { voice: false });
  if (plan.kind === 'mediaPath') return prepareFromLocalPath(ctx, input.mediaPath?.trim() ?? '', { voice: false });
  return undefined;
}

/** The groups an action is for: those chosen (each must be one of the connection's), or every group where it is admin. */
function targetGroups(groups: GroupInfo[], groupIds: string[] | undefined): GroupInfo[] {
  if (groupIds === undefined) return groups.filter((g) => g.participants.some((p) => p.me && p.admin));
  const byId = new Map(groups.map((g) => [g.groupId, g]));
  const chosen: GroupInfo[] = [];
  for (const id of new Set(groupIds)) {
    const group = byId.get(id);
    if (!group) throw new AppError('ERR_GROUP_NOT_FOUND', { fields: { groupIds: 'INVALID' } });
    chosen.push(group);
  }
  return chosen;
}

/** Each participant once, in the order the groups list them, never the connection's own number. */
export function participantRecipients(groups: GroupInfo[]): RecipientInsert[] {
  const seen = new Set<string>();
  const recipients: RecipientInsert[] = [];
  for (const group of groups) {
    for (const p of group.participants) {
      if (p.me || seen.has(p.number)) continue;
      seen.add(p.number);
      recipients.push({ input: p.number, number: p.number, groupId: null, status: 'queued', error: null });
    }
  }
  return recipients;
}

/**
 * Starts an action on groups. The filled fields must be exactly the action's (spec 5), else
 * ERR_GROUP_FIELDS and nothing is stored. The groups are read from the network once, to check
 * the chosen ones and to list participants; each group is looked at again when its turn comes.
 */
export async function startGroupAction(ctx: AppContext, sessions: SessionManager, actor: CampaignActor, input: TGroupAction): Promise<TCampaign> {
  if (!groupActionFieldsMatch(input.action, input)) throw new AppError('ERR_GROUP_FIELDS');
  const driver = await connectedDriver(ctx, sessions, input.whatsappId);
  const groups = targetGroups(await driver.listGroups(), input.groupIds);
  if (groups.length === 0) throw new AppError('ERR_NO_GROUPS', { fields: { groupIds: 'REQUIRED' } });
  const plan = planOf(input.action, input);
  const recipients: RecipientInsert[] =
    plan.audience === 'participants'
      ? participantRecipients(groups)
      : groups.map((g) => ({ input: (g.subject || g.groupId).slice(0, 60), number: null, groupId: g.groupId, status: 'queued', error: null }));
  if (recipients.length === 0) throw new AppError('ERR_NO_RECIPIENTS', { message: 'These groups have no participant besides the connection itself.' });
  const media = isGroupActionKind(plan.kind) ? undefined : await prepareMedia(ctx, plan, input);
  return storeCampaign(ctx, actor, {
    kind: plan.kind,
    audience: plan.audience,
    whatsappId: input.whatsappId,
    message: plan.message,
    media,
    pace: ctx.config.groupPace,
    recipients,
  });
}
