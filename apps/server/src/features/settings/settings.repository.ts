import { SETTINGS, type SettingKey } from '@zapdesk/shared/domain';
import type { Db } from '../../core/db/database.js';

export type SettingRow = { key: string; value: string; updatedAt: string };

export async function getSettingValue(db: Db, key: SettingKey): Promise<string> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? SETTINGS[key].default;
}

export function listSettingRows(db: Db): Promise<SettingRow[]> {
  return db.selectFrom('settings').select(['key', 'value', 'updatedAt']).orderBy('key').execute();
}

export function findSettingRow(db: Db, key: SettingKey): Promise<SettingRow | undefined> {
  return db.selectFrom('settings').select(['key', 'value', 'updatedAt']).where('key', '=', key).executeTakeFirst();
}

export async function upsertSetting(db: Db, key: SettingKey, value: string, now: string): Promise<SettingRow> {
  return db
    .insertInto('settings')
    .values({ key, value, updatedAt: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt: now }))
    .returning(['key', 'value', 'updatedAt'])
    .executeTakeFirstOrThrow();
}

/** Inserts the keys that are missing; existing values are never touched. */
export async function insertMissingSettings(db: Db, values: Record<SettingKey, string>, now: string): Promise<void> {
  const rows = Object.entries(values).map(([key, value]) => ({ key, value, updatedAt: now }));
  await db.insertInto('settings').values(rows).onConflict((oc) => oc.column('key').doNothing()).execute();
}
