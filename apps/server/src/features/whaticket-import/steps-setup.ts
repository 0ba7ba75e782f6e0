/** Queues, connections, users and their links: small tables, row by row, one transaction per page. */
import { QUEUE_COLORS } from '@zapdesk/shared/domain';
import { isVerifiableHash } from '../../core/auth/password.js';
import { insertUser } from '../users/users.repository.js';
import { eachPage, wholeTable, type ImportCtx } from './context.js';
import * as repo from './importer.repository.js';
import { insertMaps, lookup, lookupAll, type MapWrite } from './map.repository.js';
import { mapProfile, toBool, toIso, toText } from './rules.js';

export async function importQueues(ctx: ImportCtx): Promise<void> {
  await eachPage(ctx, 'Queues', 'id', (rows) =>
    ctx.batch(async (db) => {
      const mapped = await lookup(
        db,
        ctx.key,
        'Queues',
        rows.map((r) => String(r.id)),
      );
      const maps: MapWrite[] = [];
      const used = await repo.usedQueueColors(db);
      for (const row of rows) {
        const id = String(row.id);
        if (mapped.has(id)) {
          ctx.report.add('Queues', 'existing');
          continue;
        }
        const name = toText(row.name).trim();
        const same = await repo.findQueueByName(db, name);
        if (same !== undefined) {
          ctx.report.changed('Queues', id, 'queue-name-exists', `matched to the queue '${name}' already here (its colour and greeting kept)`);
          ctx.report.add('Queues', 'existing');
          maps.push({ sourceTable: 'Queues', sourceId: id, targetId: same, sourceUpdatedAt: null });
          continue;
        }
        let color = toText(row.color).trim() || QUEUE_COLORS[0];
        if (used.has(color.toLowerCase())) {
          const free = QUEUE_COLORS.find((c) => !used.has(c.toLowerCase())) ?? color;
          ctx.report.changed('Queues', id, 'queue-color-taken', `colour ${color} is another queue's here: ${free} given instead`);
          color = free;
        }
        used.add(color.toLowerCase());
        const targetId = await repo.insertQueue(db, {
          name,
          color,
          greetingMessage: toText(row.greetingMessage),
          createdAt: toIso(row.createdAt, ctx.offset),
          updatedAt: toIso(row.updatedAt, ctx.offset),
        });
        ctx.report.add('Queues', 'imported');
        maps.push({ sourceTable: 'Queues', sourceId: id, targetId, sourceUpdatedAt: null });
      }
      await insertMaps(db, ctx.key, maps);
    }),
  );
}

export async function importWhatsapps(ctx: ImportCtx): Promise<void> {
  await eachPage(ctx, 'Whatsapps', 'id', (rows) =>
    ctx.batch(async (db) => {
      const mapped = await lookup(
        db,
        ctx.key,
        'Whatsapps',
        rows.map((r) => String(r.id)),
      );
      const maps: MapWrite[] = [];
      for (const row of rows) {
        const id = String(row.id);
        const name = toText(row.name).trim() || `whaticket ${id}`;
        if (mapped.has(id)) {
          ctx.report.add('Whatsapps', 'existing');
          continue;
        }
        const same = await repo.findWhatsappByName(db, name);
        if (same !== undefined) {
          ctx.report.changed('Whatsapps', id, 'connection-name-exists', `matched to the connection '${name}' already here (left as it is)`);
          ctx.report.add('Whatsapps', 'existing');
          maps.push({ sourceTable: 'Whatsapps', sourceId: id, targetId: same, sourceUpdatedAt: null });
          continue;
        }
        let isDefault = toBool(row.isDefault);
        if (isDefault && (await repo.defaultWhatsappId(db)) !== undefined) {
          ctx.report.changed('Whatsapps', id, 'second-default-connection', `'${name}' was whaticket's default; this server already has one: imported as not default`);
          isDefault = false;
        }
        const targetId = await repo.insertWhatsapp(db, {
          name,
          isDefault,
          greetingMessage: toText(row.greetingMessage),
          farewellMessage: toText(row.farewellMessage),
          createdAt: toIso(row.createdAt, ctx.offset),
          updatedAt: toIso(row.updatedAt, ctx.offset),
        });
        ctx.report.add('Whatsapps', 'imported');
        ctx.report.warn(`Connection '${name}' (whaticket #${id}) is imported DISCONNECTED: a whatsapp-web.js session cannot be carried; scan a new QR code in Connections.`);
        maps.push({ sourceTable: 'Whatsapps', sourceId: id, targetId, sourceUpdatedAt: null });
      }
      await insertMaps(db, ctx.key, maps);
    }),
  );
}

export async function importWhatsappQueues(ctx: ImportCtx): Promise<void> {
  const whatsapps = await lookupAll(ctx.db, ctx.key, 'Whatsapps');
  const queues = await lookupAll(ctx.db, ctx.key, 'Queues');
  await wholeTable(ctx, 'WhatsappQueues', (rows) =>
    ctx.batch(async (db) => {
      for (const row of rows) {
        const id = `${toText(row.whatsappId)}:${toText(row.queueId)}`;
        const whatsappId = whatsapps.get(toText(row.whatsappId));
        const queueId = queues.get(toText(row.queueId));
        if (whatsappId === undefined) ctx.report.skipped('WhatsappQueues', id, 'missing-whatsapp', `connection #${toText(row.whatsappId)} is not in the source`);
        else if (queueId === undefined) ctx.report.skipped('WhatsappQueues', id, 'missing-queue', `queue #${toText(row.queueId)} is not in the source`);
        else ctx.report.add('WhatsappQueues', (await repo.insertWhatsappQueue(db, whatsappId, queueId)) ? 'imported' : 'existing');
      }
    }),
  );
}

export async function importUsers(ctx: ImportCtx): Promise<void> {
  const whatsapps = await lookupAll(ctx.db, ctx.key, 'Whatsapps');
  await eachPage(ctx, 'Users', 'id', (rows) =>
    ctx.batch(async (db) => {
      const mapped = await lookup(
        db,
        ctx.key,
        'Users',
        rows.map((r) => String(r.id)),
      );
      const maps: MapWrite[] = [];
      for (const row of rows) {
        const id = String(row.id);
        if (mapped.has(id)) {
          ctx.report.add('Users', 'existing');
          continue;
        }
        const email = toText(row.email).trim().toLowerCase();
        const same = await repo.findUserByEmail(db, email);
        if (same !== undefined) {
          ctx.report.changed('Users', id, 'email-exists', `${email} already has an account here: linked to it, its password and profile kept`);
          ctx.report.add('Users', 'existing');
          maps.push({ sourceTable: 'Users', sourceId: id, targetId: same, sourceUpdatedAt: null });
          continue;
        }
        const passwordHash = toText(row.passwordHash);
        if (!isVerifiableHash(passwordHash)) {
          ctx.report.changed('Users', id, 'hash-unverifiable', `${email}: the password hash is not bcrypt: this agent cannot sign in until an admin sets a new password (Users › edit)`);
        }
        const { profile, known } = mapProfile(toText(row.profile));
        if (!known) ctx.report.changed('Users', id, 'profile-unknown', `${email}: profile '${toText(row.profile)}' imported as 'user'`);
        let whatsappId: number | null = null;
        if (row.whatsappId !== null && row.whatsappId !== undefined) {
          whatsappId = whatsapps.get(toText(row.whatsappId)) ?? null;
          if (whatsappId === null) ctx.report.changed('Users', id, 'missing-whatsapp', `${email}: default connection #${toText(row.whatsappId)} is not in the source: none set`);
        }
        const targetId = await insertUser(db, { name: toText(row.name).trim() || email, email, profile, whatsappId, roleId: null, passwordHash }, toIso(row.createdAt, ctx.offset));
        ctx.report.add('Users', 'imported');
        maps.push({ sourceTable: 'Users', sourceId: id, targetId, sourceUpdatedAt: null });
      }
      await insertMaps(db, ctx.key, maps);
    }),
  );
}

export async function importUserQueues(ctx: ImportCtx): Promise<void> {
  const users = await lookupAll(ctx.db, ctx.key, 'Users');
  const queues = await lookupAll(ctx.db, ctx.key, 'Queues');
  await wholeTable(ctx, 'UserQueues', (rows) =>
    ctx.batch(async (db) => {
      for (const row of rows) {
        const id = `${toText(row.userId)}:${toText(row.queueId)}`;
        const userId = users.get(toText(row.userId));
        const queueId = queues.get(toText(row.queueId));
        if (userId === undefined) ctx.report.skipped('UserQueues', id, 'missing-user', `user #${toText(row.userId)} is not in the source`);
        else if (queueId === undefined) ctx.report.skipped('UserQueues', id, 'missing-queue', `queue #${toText(row.queueId)} is not in the source`);
        else ctx.report.add('UserQueues', (await repo.insertUserQueue(db, userId, queueId)) ? 'imported' : 'existing');
      }
    }),
  );
}
