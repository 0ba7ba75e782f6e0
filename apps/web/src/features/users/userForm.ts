import type { Profile } from '@zapdesk/shared/domain';
import { ZUserCreateSchema, ZUserUpdateSchema } from '@zapdesk/shared/schemas';
import { schemaRules } from '../../core/forms/schemaRules';

export type UserFormValues = {
  name: string;
  email: string;
  password: string;
  /** Asked when one changes one's own password. */
  currentPassword: string;
  profile: Profile;
  queueIds: number[];
  whatsappId: number | null;
  /** A plain user's role; null: the built-in agent role. */
  roleId: number | null;
};

/** A new user needs a password (create schema); when editing, an empty one keeps the current (update schema). */
export function userFormSchema(editing: boolean) {
  return schemaRules<UserFormValues>(editing ? ZUserUpdateSchema : ZUserCreateSchema);
}
