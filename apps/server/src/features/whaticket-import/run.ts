/** One import run: the steps in dependency order over one source snapshot, into the target. */
import path from 'node:path';
import { nowIso } from '../../core/time.js';
import type { ImportCtx } from './context.js';
import { finishRun, lastMessagesWatermark, startRun } from './map.repository.js';
import type { Progress } from './progress.js';
import { Report } from './report.js';
import type { Source } from './source.js';
import { importContactCustomFields, importContacts } from './steps-contacts.js';
import { importMessages } from './steps-messages.js';
import { importQuickAnswers, importSettings } from './steps-misc.js';
import { importQueues, importUserQueues, importUsers, importWhatsappQueues, importWhatsapps } from './steps-setup.js';
import { importTickets } from './steps-tickets.js';
import { withTarget } from './target.js';
import { countOpenTicketsIdleSince, refreshStatistics } from './importer.repository.js';
import { LIMITS } from '@zapdesk/shared/domain';

export type RunOptions = {
  source: Source;
  target: { databaseUrl: string | undefined; dataDir: string; mediaDir: string };
  mediaFrom: string | undefined;
  dryRun: boolean;
  batchSize: number;
  offset: string;
  progress: Progress;
  /** Read every message again, not only those updated since the last complete run. */
  full?: boolean;
};

/** The tables the steps look rows up in (PostgreSQL's statistics refreshed before each step). */
export const STATISTICS_TABLES = ['importMap', 'contacts', 'tickets', 'messages', 'importPendingQuotes'] as const;

const MESSAGES_MARGIN_MS = 24 * 60 * 60 * 1000;

const STEPS = [
  importQueues,
  importWhatsapps,
  importWhatsappQueues,
  importUsers,
  importUserQueues,
  importContacts,
  importContactCustomFields,
  importTickets,
  importMessages,
  importQuickAnswers,
  importSettings,
];

export async function runImport(options: RunOptions): Promise<Report> {
  const report = new Report(options.source.label, options.dryRun);
  await withTarget({ databaseUrl: options.target.databaseUrl, dataDir: options.target.dataDir, dryRun: options.dryRun }, async (db, batch, kind) => {
    const ctx: ImportCtx = {
      db,
      kind,
      batch,
      source: options.source,
      key: options.source.label,
      report,
      progress: options.progress,
      dryRun: options.dryRun,
      mediaFrom: options.mediaFrom ? path.resolve(options.mediaFrom) : undefined,
      mediaDir: options.target.mediaDir,
      batchSize: options.batchSize,
      offset: options.offset,
      messagesSince: undefined,
      messagesWatermark: undefined,
    };
    // A rerun after a complete run reads only the messages updated since it, less a day: a write that
    // committed late, or clocks a little apart, still comes along. Tickets and the rest are read whole.
    const watermark = options.full ? undefined : await lastMessagesWatermark(db, ctx.key);
    if (watermark) {
      ctx.messagesSince = new Date(new Date(watermark).getTime() - MESSAGES_MARGIN_MS);
      ctx.messagesWatermark = watermark;
      report.warn(`Messages: only those updated since ${ctx.messagesSince.toISOString()} were read (the last complete run's latest, less a day); --full reads them all.`);
    }
    if (!ctx.mediaFrom) report.warn('No --media folder given: media messages are imported without their files.');
    const runId = await batch((trx) => startRun(trx, ctx.key, nowIso()));
    for (const step of STEPS) {
      await refreshStatistics(db, kind, STATISTICS_TABLES);
      await step(ctx);
    }
    // The product closes open tickets idle for LIMITS.autoCloseHours when it starts: say so before it happens.
    const idle = await countOpenTicketsIdleSince(db, new Date(Date.now() - LIMITS.autoCloseHours * 3600 * 1000).toISOString());
    if (idle > 0) report.warn(`${idle} open ticket(s) idle for more than ${LIMITS.autoCloseHours} h will be closed by the auto-close when the product starts (its rule for every ticket).`);
    await batch((trx) => finishRun(trx, runId, JSON.stringify(report.toJSON()), nowIso(), ctx.messagesWatermark ?? null));
  });
  if (options.dryRun) report.warn('Dry run: nothing was written (target and media store untouched).');
  return report;
}
