/**
 * `npm run import:whaticket -- --from <url> --media <dir> [--dry-run] [--report <file.json>]`.
 * The target is the product's own database (DATABASE_URL, or SQLite in DATA_DIR) and media
 * store (MEDIA_DIR, or DATA_DIR/media). Exit codes: 0 done, 1 failed (rerun resumes), 2 usage.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs, USAGE } from './args.js';
import { formatReport } from './print.js';
import { createProgress } from './progress.js';
import { runImport } from './run.js';
import { openSource, UsageError, type Source } from './source.js';

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    return 2;
  }
  if (args.media) {
    const stat = await fs.stat(args.media).catch(() => undefined);
    if (!stat?.isDirectory()) {
      process.stderr.write(`--media ${args.media} is not a folder\n${USAGE}\n`);
      return 2;
    }
  }
  const dataDir = process.env.DATA_DIR || './data';
  const target = { databaseUrl: process.env.DATABASE_URL || undefined, dataDir, mediaDir: path.resolve(process.env.MEDIA_DIR || path.join(dataDir, 'media')) };
  const tty = Boolean(process.stderr.isTTY) && !args.plain;
  let source: Source;
  try {
    source = await openSource(args.from, args.offset);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`cannot read the source: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  try {
    const targetName = target.databaseUrl ? new URL(target.databaseUrl).host + new URL(target.databaseUrl).pathname : path.join(dataDir, 'zapdesk.sqlite');
    process.stderr.write(`whaticket import${args.dryRun ? ' (dry run)' : ''}: ${source.label} → ${target.databaseUrl ? 'postgres://' : 'sqlite:'}${targetName}, media → ${target.mediaDir}\n`);
    const report = await runImport({
      source,
      target,
      mediaFrom: args.media,
      dryRun: args.dryRun,
      batchSize: args.batchSize,
      offset: args.offset,
      full: args.full,
      progress: createProgress(process.stderr, { tty }),
    });
    const json = report.toJSON();
    if (args.report) await fs.writeFile(args.report, `${JSON.stringify(json, null, 2)}\n`);
    process.stdout.write(formatReport(json, { color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR, reportFile: args.report }));
    return 0;
  } catch (error) {
    process.stderr.write(
      `\nimport failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\nNothing half-written: each batch is one transaction. Run the same command again to resume.\n`,
    );
    return 1;
  } finally {
    await source.close().catch(() => undefined);
  }
}

process.exitCode = await main();
