/**
 * Group tools (spec 2 'Group tool tabs', 5 'Group tool'): the groups of a connection, creating
 * one, and the actions on many groups at once that run on the server as campaigns.
 */
import { z } from 'zod';
import { CAMPAIGN_LIMITS } from './campaigns.js';
import { MAX_ID } from './domain.js';

/** A group id as the product keeps it (the part before @g.us). */
export const GROUP_ID_PATTERN = /^\d{5,30}(-\d{5,15})?$/;
/** WhatsApp's limits on a group's name and description. */
export const GROUP_LIMITS = { subjectChars: 100, descriptionChars: 2_048, maxGroups: 2_000, maxParticipantsInput: 1_024 } as const;
/** The words the open and close tabs ask to type (spec 5). */
export const GROUP_CONFIRM_WORDS = { open: 'ABRIR', close: 'FECHAR' } as const;

/** The six tabs' actions; 'participants' is the private message to every participant. */
export const GROUP_TOOL_ACTIONS = ['subject', 'description', 'open', 'close', 'message', 'participants'] as const;
export type GroupToolAction = (typeof GROUP_TOOL_ACTIONS)[number];

export const ZGroupSchema = z.object({
  id: z.string(),
  subject: z.string(),
  description: z.string(),
  /** Participants, the connection's number included. */
  size: z.number(),
  /** The connection's number is an admin of the group. */
  isAdmin: z.boolean(),
  /** Closed: only admins may send. */
  announce: z.boolean(),
  /** Only admins may change the name and description. */
  restrict: z.boolean(),
});
export type TGroup = z.infer<typeof ZGroupSchema>;
export const ZGroupListSchema = z.object({ groups: z.array(ZGroupSchema) });
export type TGroupList = z.infer<typeof ZGroupListSchema>;

const id = z.coerce.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID');
export const ZGroupListQuerySchema = z.object({ whatsappId: id });

const groupId = z.string('INVALID').regex(GROUP_ID_PATTERN, 'INVALID');

/** Create group: a title and members, typed one per line and/or picked from the contacts. */
export const ZGroupCreateSchema = z.object({
  whatsappId: id,
  title: z.string('REQUIRED').trim().min(1, 'REQUIRED').max(GROUP_LIMITS.subjectChars, 'TOO_LONG'),
  participants: z
    .string()
    .max(GROUP_LIMITS.maxParticipantsInput * 40, 'TOO_LONG')
    .default(''),
  contactIds: z.array(id).max(GROUP_LIMITS.maxParticipantsInput, 'TOO_BIG').default([]),
});
export type TGroupCreate = z.input<typeof ZGroupCreateSchema>;

export const ZGroupCreatedSchema = z.object({
  group: ZGroupSchema,
  /** The numbers that are members now. */
  added: z.array(z.string()),
  /** What could not be added: as typed, the number tried (null when it is not one), and why. */
  failed: z.array(z.object({ input: z.string(), number: z.string().nullable(), error: z.string() })),
});
export type TGroupCreated = z.infer<typeof ZGroupCreatedSchema>;

/** The fields of the group tools' forms; which of them are filled decides the action. */
export type GroupActionFields = {
  subject?: string | undefined;
  description?: string | undefined;
  confirm?: string | undefined;
  message?: string | undefined;
  mediaUrl?: string | undefined;
  mediaPath?: string | undefined;
};

const filled = (value: string | undefined) => (value ?? '').trim() !== '';

/**
 * Spec 5: only one combination of filled fields triggers an action. Each action has its
 * fields filled and every other field empty; open and close need their word typed exactly.
 */
export function groupActionFieldsMatch(action: GroupToolAction, fields: GroupActionFields): boolean {
  const has = {
    subject: filled(fields.subject),
    description: filled(fields.description),
    confirm: filled(fields.confirm),
    message: filled(fields.message),
    media: filled(fields.mediaUrl) || filled(fields.mediaPath),
  };
  const onlyThese = (...keys: (keyof typeof has)[]) => (Object.keys(has) as (keyof typeof has)[]).every((key) => keys.includes(key) || !has[key]);
  switch (action) {
    case 'subject':
      return has.subject && onlyThese('subject');
    case 'description':
      return has.description && onlyThese('description');
    case 'open':
      return fields.confirm?.trim() === GROUP_CONFIRM_WORDS.open && onlyThese('confirm');
    case 'close':
      return fields.confirm?.trim() === GROUP_CONFIRM_WORDS.close && onlyThese('confirm');
    case 'message':
    case 'participants':
      return (has.message || has.media) && onlyThese('message', 'media') && !(filled(fields.mediaUrl) && filled(fields.mediaPath));
  }
}

/** An action on groups. Without `groupIds`, every group where the connection's number is admin. */
export const ZGroupActionSchema = z.object({
  whatsappId: id,
  action: z.enum(GROUP_TOOL_ACTIONS, 'INVALID'),
  groupIds: z.array(groupId).max(GROUP_LIMITS.maxGroups, 'TOO_BIG').optional(),
  subject: z.string().max(GROUP_LIMITS.subjectChars, 'TOO_LONG').optional(),
  description: z.string().max(GROUP_LIMITS.descriptionChars, 'TOO_LONG').optional(),
  confirm: z.string().max(20, 'TOO_LONG').optional(),
  message: z.string().max(CAMPAIGN_LIMITS.maxMessageChars, 'TOO_LONG').optional(),
  mediaUrl: z.string().max(2_000, 'TOO_LONG').optional(),
  mediaPath: z.string().max(1_000, 'TOO_LONG').optional(),
});
export type TGroupAction = z.infer<typeof ZGroupActionSchema>;

// ---------- the tool API (spec 7: /zdgGroups*, /zdgOpenGroup, /zdgCloseGroup) ----------
const token = z.string().max(500, 'TOO_LONG').optional();
const connectionId = id;
const groupIds = z.array(groupId).max(GROUP_LIMITS.maxGroups, 'TOO_BIG').optional();

export const ZToolGroupSubjectSchema = z.object({
  subject: z.string('REQUIRED').trim().min(1, 'REQUIRED').max(GROUP_LIMITS.subjectChars, 'TOO_LONG'),
  token,
  ticketwhatsappId: connectionId,
  groupIds,
});
export const ZToolGroupDescriptionSchema = z.object({
  description: z.string('REQUIRED').trim().min(1, 'REQUIRED').max(GROUP_LIMITS.descriptionChars, 'TOO_LONG'),
  token,
  ticketwhatsappId: connectionId,
  groupIds,
});
/** `contact`: the members, one number per line (or separated by commas), or a list. */
export const ZToolGroupCreateSchema = z.object({
  title: z.string('REQUIRED').trim().min(1, 'REQUIRED').max(GROUP_LIMITS.subjectChars, 'TOO_LONG'),
  contact: z.union([z.string().max(GROUP_LIMITS.maxParticipantsInput * 40, 'TOO_LONG'), z.array(z.string().max(40, 'TOO_LONG')).max(GROUP_LIMITS.maxParticipantsInput, 'TOO_BIG')], 'REQUIRED'),
  token,
  ticketwhatsappId: connectionId,
});
/** newMessageGroup: a message in the groups; newMessAgeGroupNasa: a private message to every participant. One of the two. */
export const ZToolGroupMessageSchema = z.object({
  newMessageGroup: z.string().max(CAMPAIGN_LIMITS.maxMessageChars, 'TOO_LONG').optional(),
  newMessAgeGroupNasa: z.string().max(CAMPAIGN_LIMITS.maxMessageChars, 'TOO_LONG').optional(),
  token,
  ticketwhatsappId: connectionId,
  groupIds,
});
export const ZToolGroupSettingSchema = z.object({ token, ticketwhatsappId: connectionId, groupIds });

// ---------- the simulator (SIMULATOR=on): groups the simulated phone belongs to ----------
const simNumber = z.string('REQUIRED').regex(/^\d{8,15}$/, 'INVALID');

/** A group someone else created with the simulated phone in it; `phoneIsAdmin`: the phone is an admin. */
export const ZSimulatorGroupCreateSchema = z.object({
  id: groupId.optional(),
  subject: z.string('REQUIRED').max(GROUP_LIMITS.subjectChars, 'TOO_LONG'),
  description: z.string().max(GROUP_LIMITS.descriptionChars, 'TOO_LONG').optional(),
  announce: z.boolean().optional(),
  restrict: z.boolean().optional(),
  phoneIsAdmin: z.boolean().default(true),
  participants: z.array(z.object({ number: simNumber, admin: z.boolean().default(false) })).max(1_024, 'TOO_BIG'),
});
export type TSimulatorGroupCreate = z.input<typeof ZSimulatorGroupCreateSchema>;

export const ZSimulatorGroupSchema = z.object({
  id: z.string(),
  subject: z.string(),
  description: z.string(),
  announce: z.boolean(),
  restrict: z.boolean(),
  participants: z.array(z.object({ number: z.string(), admin: z.boolean() })),
});
export type TSimulatorGroup = z.infer<typeof ZSimulatorGroupSchema>;
export const ZSimulatorGroupsSchema = z.object({ ownNumber: z.string(), groups: z.array(ZSimulatorGroupSchema) });
export type TSimulatorGroups = z.infer<typeof ZSimulatorGroupsSchema>;
