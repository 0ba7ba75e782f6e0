import { SETTINGS, type SettingKey } from '@zapdesk/shared/domain';
import { CONFIG_CACHE_MS } from '../../core/db/config-cache.js';
import type { Db } from '../../core/db/database.js';

export type SettingRow = { key: string; value: string; updatedAt: string };

/**
 * The pipeline reads settings on every message: values are kept for a moment. A change made on
 * this node applies at once; one made on another node within CONFIG_CACHE_MS (config-cache.ts).
 */
const cache = new WeakMap<Db, Map<SettingKey, { value: string; at: number }>>();

export async function getSettingValue(db: Db, key: SettingKey): Promise<string> {
  const entries = cache.get(db) ?? new Map<SettingKey, { value: string; at: number }>();
  cache.set(db, entries);
  const hit = entries.get(key);
  if (hit && Date.now() - hit.at < CONFIG_CACHE_MS) return hit.value;
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  const value = row?.value ?? SETTINGS[key].default;
  entries.set(key, { value, at: Date.now() });
  return value;
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
  cache.get(db)?.set(key, { value, at: Date.now() });
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
}
