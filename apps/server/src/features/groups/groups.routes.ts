/**
 * Group tools for signed-in users (the /ZDGGroups page) and the spec's group calls of the tool
 * API (`/zdgGroups*`, `/zdgOpenGroup`, `/zdgCloseGroup`), which take a session or the userApiToken.
 * An action answers 202 with its campaign; GET /campaigns/{id} and /campaigns/{id}/recipients
 * follow it, group by group.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZCampaignSchema, ZToolAcceptedSchema } from '@zapdesk/shared/campaigns';
import {
  ZGroupActionSchema,
  ZGroupCreateSchema,
  ZGroupCreatedSchema,
  ZGroupListQuerySchema,
  ZGroupListSchema,
  ZToolGroupCreateSchema,
  ZToolGroupDescriptionSchema,
  ZToolGroupMessageSchema,
  ZToolGroupSettingSchema,
  ZToolGroupSubjectSchema,
  type TGroupAction,
} from '@zapdesk/shared/groups';
import type { SessionManager } from '../../channels/session-manager.js';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { currentUser } from '../../core/http/auth-hooks.js';
import { compact, field, nested, numberField, textField, type AuditInput, type AuditPick, type AuditRule } from '../../core/http/audit-hook.js';
import { sendAudit } from '../campaigns/campaign-audit.js';
import { sessionActor } from '../campaigns/campaigns.routes.js';
import { actorOf, sessionOrApiToken, toolRateLimit } from '../campaigns/tool-auth.js';
import * as service from './groups.service.js';

/** A new group: its id, its name and how many joined. */
const groupCreate = {
  action: 'groups.create',
  target: 'group',
  pick: ({ reply }: AuditInput): AuditPick => {
    const group = nested(reply, 'group');
    const added = field(reply, 'added');
    return { targetId: textField(group, 'id') ?? null, targetName: textField(group, 'subject') ?? null, detail: compact({ added: Array.isArray(added) ? added.length : undefined }) };
  },
} as const;

/** An action on groups: which one (from the route, or the body's `action`), its campaign and how many groups. */
function groupAction(action?: string): AuditRule {
  return {
    action: 'groups.action',
    target: 'campaign',
    pick: (input) => {
      const sent = sendAudit(input);
      return {
        ...sent,
        detail: compact({ action: action ?? textField(input.body, 'action') ?? (field(input.body, 'newMessageGroup') ? 'message' : 'participants'), groups: numberField(sent.detail, 'recipients') }),
      };
    },
  };
}

export const groupsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; sessions: SessionManager }> = async (app, { ctx, sessions }) => {
  const tags = ['groups'];
  const onRequest = requirePermission(ctx, 'groups');

  app.get('/groups', { schema: { tags, querystring: ZGroupListQuerySchema, response: { 200: ZGroupListSchema } }, onRequest }, async (req) => ({
    groups: await service.listGroups(ctx, sessions, req.query.whatsappId),
  }));

  app.post('/groups', { schema: { tags, body: ZGroupCreateSchema, response: { 201: ZGroupCreatedSchema } }, onRequest, config: { audit: groupCreate } }, async (req, reply) => {
    const { contactIds, ...group } = req.body;
    return reply.code(201).send(await service.createGroup(ctx, sessions, { ...group, picked: { by: currentUser(req), contactIds } }));
  });

  app.post(
    '/groups/actions',
    {
      schema: {
        tags,
        description: 'An action on groups, done on the server one group at a time at the group pace. Without `groupIds`: every group where the connection is admin.',
        body: ZGroupActionSchema,
        response: { 202: ZCampaignSchema },
      },
      onRequest,
      config: { audit: groupAction() },
    },
    async (req, reply) => reply.code(202).send(await service.startGroupAction(ctx, sessions, sessionActor(req), req.body)),
  );

  // ---------- the tool API ----------
  const toolTags = ['tool API'];
  const security = [{ bearer: [] }];
  const preValidation = sessionOrApiToken(ctx, 'groups');
  const config = { rateLimit: toolRateLimit };
  const accepted = { 202: ZToolAcceptedSchema };
  const start = async (req: FastifyRequest, input: TGroupAction) => {
    const campaign = await service.startGroupAction(ctx, sessions, actorOf(req), input);
    return { id: campaign.id, status: campaign.status };
  };
  const allAdminGroups = 'Without `groupIds`, every group where the connection is admin.';

  app.post(
    '/zdgGroups',
    {
      schema: { tags: toolTags, security, description: `Renames groups to \`subject\`. ${allAdminGroups}`, body: ZToolGroupSubjectSchema, response: accepted },
      preValidation,
      config: { ...config, audit: groupAction('subject') },
    },
    async (req, reply) => reply.code(202).send(await start(req, { action: 'subject', whatsappId: req.body.ticketwhatsappId, groupIds: req.body.groupIds, subject: req.body.subject })),
  );

  app.post(
    '/zdgGroupsDescription',
    {
      schema: { tags: toolTags, security, description: `Sets the groups' description. ${allAdminGroups}`, body: ZToolGroupDescriptionSchema, response: accepted },
      preValidation,
      config: { ...config, audit: groupAction('description') },
    },
    async (req, reply) => reply.code(202).send(await start(req, { action: 'description', whatsappId: req.body.ticketwhatsappId, groupIds: req.body.groupIds, description: req.body.description })),
  );

  app.post(
    '/zdgGroupsCreate',
    {
      schema: {
        tags: toolTags,
        security,
        description: 'Creates a group named `title` with the members in `contact` (numbers one per line or comma-separated, or a list), and answers what could not be added.',
        body: ZToolGroupCreateSchema,
        response: { 201: ZGroupCreatedSchema },
      },
      preValidation,
      config: { ...config, audit: groupCreate },
    },
    async (req, reply) => {
      actorOf(req);
      const contact = req.body.contact;
      const participants = (Array.isArray(contact) ? contact : contact.split(/[,;\n]/)).join('\n');
      return reply.code(201).send(await service.createGroup(ctx, sessions, { whatsappId: req.body.ticketwhatsappId, title: req.body.title, participants }));
    },
  );

  app.post(
    '/zdgGroupsMessage',
    {
      schema: {
        tags: toolTags,
        security,
        description: `\`newMessageGroup\`: a message in the groups; \`newMessAgeGroupNasa\`: a private message to every participant, once each. One of the two. ${allAdminGroups}`,
        body: ZToolGroupMessageSchema,
        response: accepted,
      },
      preValidation,
      config: { ...config, audit: groupAction() },
    },
    async (req, reply) => {
      const inGroups = req.body.newMessageGroup?.trim() ?? '';
      const toParticipants = req.body.newMessAgeGroupNasa?.trim() ?? '';
      if ((inGroups === '') === (toParticipants === '')) throw new AppError('ERR_GROUP_FIELDS');
      const action = inGroups ? 'message' : 'participants';
      return reply.code(202).send(await start(req, { action, whatsappId: req.body.ticketwhatsappId, groupIds: req.body.groupIds, message: inGroups || toParticipants }));
    },
  );

  for (const [path, action, word] of [
    ['/zdgOpenGroup', 'open', 'ABRIR'],
    ['/zdgCloseGroup', 'close', 'FECHAR'],
  ] as const) {
    app.post(
      path,
      {
        schema: {
          tags: toolTags,
          security,
          description: `${action === 'open' ? 'Opens the groups: everyone may send' : 'Closes the groups: only admins may send'}. ${allAdminGroups}`,
          body: ZToolGroupSettingSchema,
          response: accepted,
        },
        preValidation,
        config: { ...config, audit: groupAction(action) },
      },
      async (req, reply) => reply.code(202).send(await start(req, { action, whatsappId: req.body.ticketwhatsappId, groupIds: req.body.groupIds, confirm: word })),
    );
  }
};
