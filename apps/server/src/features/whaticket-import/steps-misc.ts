/** Quick answers, and the settings both sides know (whaticket's value wins: it is the running configuration). */
import { SETTINGS, isSettingKey } from '@zapdesk/shared/domain';
import { insertQuickAnswer } from '../quickAnswers/quickAnswers.repository.js';
import { getSettingValue, upsertSetting } from '../settings/settings.repository.js';
import { eachPage, wholeTable, type ImportCtx } from './context.js';
import { findQuickAnswer } from './importer.repository.js';
import { insertMaps, lookup, type MapWrite } from './map.repository.js';
import { toIso, toText } from './rules.js';

export async function importQuickAnswers(ctx: ImportCtx): Promise<void> {
  await eachPage(ctx, 'QuickAnswers', 'id', (rows) =>
    ctx.batch(async (db) => {
      const mapped = await lookup(
        db,
        ctx.key,
        'QuickAnswers',
        rows.map((r) => String(r.id)),
      );
      const maps: MapWrite[] = [];
      for (const row of rows) {
        const id = String(row.id);
        if (mapped.has(id)) {
          ctx.report.add('QuickAnswers', 'existing');
          continue;
        }
        const shortcut = toText(row.shortcut).trim();
        const message = toText(row.message);
        const same = await findQuickAnswer(db, shortcut, message);
        if (same !== undefined) {
          ctx.report.changed('QuickAnswers', id, 'shortcut-exists', `'/${shortcut}' with the same text is already here: linked to it`);
          ctx.report.add('QuickAnswers', 'existing');
          maps.push({ sourceTable: 'QuickAnswers', sourceId: id, targetId: same, sourceUpdatedAt: null });
          continue;
        }
        const created = await insertQuickAnswer(db, { shortcut, message }, toIso(row.createdAt, ctx.offset));
        ctx.report.add('QuickAnswers', 'imported');
        maps.push({ sourceTable: 'QuickAnswers', sourceId: id, targetId: created.id, sourceUpdatedAt: null });
      }
      await insertMaps(db, ctx.key, maps);
    }),
  );
}

export async function importSettings(ctx: ImportCtx): Promise<void> {
  await wholeTable(ctx, 'Settings', (rows) =>
    ctx.batch(async (db) => {
      for (const row of rows) {
        const key = toText(row.key);
        const value = toText(row.value);
        if (!isSettingKey(key)) {
          ctx.report.skipped('Settings', key, 'setting-unknown', `'${key}' has no counterpart here`);
          continue;
        }
        const def: { options?: readonly string[]; kind: string } = SETTINGS[key];
        const allowed = def.kind === 'toggle' ? ['enabled', 'disabled'] : def.options;
        // A fork's API token is carried: its integrations keep working with the token they have.
        const carriedToken = key === 'userApiToken' && value.length >= 16;
        if ((def.kind === 'readonly' && !carriedToken) || (allowed && !allowed.includes(value))) {
          ctx.report.skipped('Settings', key, 'setting-unknown', `'${key}' = '${value}' is not a value this server takes: its own kept`);
          continue;
        }
        if ((await getSettingValue(db, key)) === value) {
          ctx.report.add('Settings', 'existing');
          continue;
        }
        await upsertSetting(db, key, value, toIso(row.updatedAt, ctx.offset));
        ctx.report.add('Settings', 'imported');
      }
    }),
  );
}
