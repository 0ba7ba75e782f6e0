import { SETTINGS, type SettingKey } from '@zapdesk/shared/domain';
import { configCache } from '../../core/db/config-cache.js';
import type { Db } from '../../core/db/database.js';

export type SettingRow = { key: string; value: string; updatedAt: string };

/**
 * The pipeline reads settings on every message: all of them are read in one statement and kept
 * for a moment. A change made on this node applies at once; one made on another node within
 * CONFIG_CACHE_MS (config-cache.ts).
 */
const stored = configCache(async (db) => {
  const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
  return new Map(rows.map((row) => [row.key, row.value]));
});

export async function getSettingValue(db: Db, key: SettingKey): Promise<string> {
  return (await stored.read(db)).get(key) ?? SETTINGS[key].default;
}

export function listSettingRows(db: Db): Promise<SettingRow[]> {
  return db.selectFrom('settings').select(['key', 'value', 'updatedAt']).orderBy('key').execute();
}

export function findSettingRow(db: Db, key: SettingKey): Promise<SettingRow | undefined> {
  return db.selectFrom('settings').select(['key', 'value', 'updatedAt']).where('key', '=', key).executeTakeFirst();
}

export async function upsertSetting(db: Db, key: SettingKey, value: string, now: string): Promise<SettingRow> {
  const row = await db
    .insertInto('settings')
    .values({ key, value, updatedAt: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt: now }))
    .returning(['key', 'value', 'updatedAt'])
    .executeTakeFirstOrThrow();
  stored.changed();
  return row;
}

/** Inserts the keys that are missing; existing values are never touched. */
export async function insertMissingSettings(db: Db, values: Record<SettingKey, string>, now: string): Promise<void> {
  const rows = Object.entries(values).map(([key, value]) => ({ key, value, updatedAt: now }));
  await db
    .insertInto('settings')
    .values(rows)
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  stored.changed();
}
