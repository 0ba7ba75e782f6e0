/**
 * The powers an admin can give or take away, one key each. Admins (profile 'admin') hold every
 * permission; a plain user holds those of their role. The built-in agent role starts with what
 * the spec lets a plain user do (AGENT_DEFAULT_PERMISSIONS); an admin may narrow it or give
 * other users custom roles. Named API tokens carry a subset of these too.
 */
export const PERMISSIONS = [
  'campaigns', // bulk sends and scheduled sends (/ZDGMedia*, /ZDGAgendamento, the tool API's sends)
  'groups', // group tools (/ZDGGroups, the zdgGroups* calls)
  'email', // e-mail sends (/zdgSendEmail*, /zdgProtocolo)
  'phone', // SMS and voice calls (Vonage)
  'instagram', // Instagram direct sends (/InstaDirect, /sendDirect)
  'history', // history import (/ZDGHistorico, /syncMessage)
  'contactsImportExport', // contact CSV import and export, /contactsZDG
  'contactsDelete', // deleting contacts, /delContacts
  'connectionsView', // the Connections page
  'connectionsManage', // add, edit, delete, pair and disconnect connections
  'ticketsDelete', // deleting tickets
  'allQueues', // the 'All' switch: every queue's tickets
  'dashboardAll', // the dashboard of everyone, not only one's own queues
  'reports', // the Reports page: every queue's figures over a range, and their CSV
  'settings', // global settings
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What the spec lets a plain user do: the built-in agent role of a new install. */
export const AGENT_DEFAULT_PERMISSIONS: readonly Permission[] = ['campaigns', 'groups', 'email', 'phone', 'instagram', 'history', 'contactsImportExport', 'connectionsView'];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** The roles that come with the product: 'agent' is every plain user's role until an admin gives another. */
export const BUILT_IN_ROLE_KEYS = ['agent'] as const;
export type BuiltInRoleKey = (typeof BUILT_IN_ROLE_KEYS)[number];
export const AGENT_ROLE_KEY: BuiltInRoleKey = 'agent';
