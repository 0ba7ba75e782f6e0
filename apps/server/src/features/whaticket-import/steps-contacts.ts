/** Contacts (numbers our way, duplicates merged) and their extra info. */
import { eachPage, type ImportCtx } from './context.js';
import * as repo from './importer.repository.js';
import { importedTargets, insertMaps, lookup, type MapWrite } from './map.repository.js';
import { normaliseNumber, toBool, toIso, toText } from './rules.js';

export async function importContacts(ctx: ImportCtx): Promise<void> {
  await eachPage(ctx, 'Contacts', 'id', (rows) =>
    ctx.batch(async (db) => {
      const mapped = await lookup(
        db,
        ctx.key,
        'Contacts',
        rows.map((r) => String(r.id)),
      );
      const fresh: { id: string; row: (typeof rows)[number]; number: string }[] = [];
      for (const row of rows) {
        const id = String(row.id);
        if (mapped.has(id)) {
          ctx.report.add('Contacts', 'existing');
          continue;
        }
        const raw = toText(row.number);
        const isGroup = toBool(row.isGroup);
        const normal = normaliseNumber(raw, isGroup);
        if (!normal) {
          ctx.report.skipped('Contacts', id, 'number-empty', `'${raw}' holds no digits: not a number this server can reach (its tickets are skipped too)`);
          continue;
        }
        if (normal.changed) ctx.report.changed('Contacts', id, 'number-normalised', `'${raw}' stored as ${normal.number}`);
        fresh.push({ id, row, number: normal.number });
      }
      const here = await repo.contactsByNumbers(
        db,
        fresh.map((f) => f.number),
      );
      const fromSource = await importedTargets(db, ctx.key, 'Contacts', here.values());
      const maps: MapWrite[] = [];
      const toInsert = new Map<string, repo.ContactInsert>();
      const firstOfNumber = new Map<string, string>();
      for (const f of fresh) {
        const target = here.get(f.number);
        if (target !== undefined) {
          const earlier = fromSource.get(target);
          if (earlier !== undefined) ctx.report.changed('Contacts', f.id, 'duplicate-number', `same number ${f.number} as contact #${earlier}: merged into it (its tickets and messages follow)`);
          else ctx.report.changed('Contacts', f.id, 'contact-number-exists', `${f.number} is already a contact here: linked to it, name and e-mail kept`);
          ctx.report.add('Contacts', 'existing');
          maps.push({ sourceTable: 'Contacts', sourceId: f.id, targetId: target, sourceUpdatedAt: null });
          continue;
        }
        const first = firstOfNumber.get(f.number);
        if (first !== undefined) {
          ctx.report.changed('Contacts', f.id, 'duplicate-number', `same number ${f.number} as contact #${first}: merged into it (its tickets and messages follow)`);
          ctx.report.add('Contacts', 'existing');
          continue;
        }
        firstOfNumber.set(f.number, f.id);
        toInsert.set(f.number, {
          name: toText(f.row.name).trim() || f.number,
          number: f.number,
          email: toText(f.row.email).trim(),
          profilePicUrl: toText(f.row.profilePicUrl),
          isGroup: toBool(f.row.isGroup),
          createdAt: toIso(f.row.createdAt, ctx.offset),
          updatedAt: toIso(f.row.updatedAt, ctx.offset),
        });
      }
      const inserted = await repo.insertContacts(db, [...toInsert.values()]);
      ctx.report.add('Contacts', 'imported', inserted.size);
      for (const f of fresh) {
        const target = here.get(f.number) === undefined ? inserted.get(f.number) : undefined;
        if (target !== undefined) maps.push({ sourceTable: 'Contacts', sourceId: f.id, targetId: target, sourceUpdatedAt: null });
      }
      await insertMaps(db, ctx.key, maps);
    }),
  );
}

export async function importContactCustomFields(ctx: ImportCtx): Promise<void> {
  await eachPage(ctx, 'ContactCustomFields', 'id', (rows) =>
    ctx.batch(async (db) => {
      const mapped = await lookup(
        db,
        ctx.key,
        'ContactCustomFields',
        rows.map((r) => String(r.id)),
      );
      const contacts = await lookup(
        db,
        ctx.key,
        'Contacts',
        rows.map((r) => toText(r.contactId)),
      );
      const maps: MapWrite[] = [];
      for (const row of rows) {
        const id = String(row.id);
        if (mapped.has(id)) {
          ctx.report.add('ContactCustomFields', 'existing');
          continue;
        }
        const contact = contacts.get(toText(row.contactId));
        if (!contact) {
          ctx.report.skipped('ContactCustomFields', id, 'missing-contact', `contact #${toText(row.contactId)} was not imported`);
          continue;
        }
        const targetId = await repo.insertExtraInfo(db, { contactId: contact.targetId, name: toText(row.name), value: toText(row.value) });
        ctx.report.add('ContactCustomFields', 'imported');
        maps.push({ sourceTable: 'ContactCustomFields', sourceId: id, targetId, sourceUpdatedAt: null });
      }
      await insertMaps(db, ctx.key, maps);
    }),
  );
}
