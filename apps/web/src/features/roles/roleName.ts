import type { TFunction } from 'i18next';

/** The built-in role's name in the reader's language; a role an admin made keeps the name they gave it. */
export function roleName(t: TFunction, role: { name: string; key: 'agent' | null }): string {
  return role.key === 'agent' ? t('roles.agentRole') : role.name;
}
