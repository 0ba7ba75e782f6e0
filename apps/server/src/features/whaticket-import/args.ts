/** The command line: `--from <url> --media <dir> [--dry-run] [--report <file>] [--batch-size <n>] [--source-timezone <±HH:MM>] [--plain]`. */
import { isOffset } from './rules.js';
import { UsageError } from './source.js';

export type Args = { from: string; media: string | undefined; dryRun: boolean; report: string | undefined; batchSize: number; offset: string; plain: boolean; full: boolean };

export const USAGE =
  'usage: npm run import:whaticket -- --from <mysql://…|mariadb://…|postgres://…> --media <whaticket backend/public folder> [--dry-run] [--report <file.json>] [--batch-size <100-10000>] [--source-timezone <±HH:MM>] [--plain] [--full]';

export function parseArgs(argv: string[]): Args {
  const args: Args = { from: '', media: undefined, dryRun: false, report: undefined, batchSize: 2000, offset: '-03:00', plain: false, full: false };
  const value = (i: number, flag: string) => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] ?? '').split(/=(.*)/s, 2) as [string, string | undefined];
    const take = () => {
      if (inline !== undefined) return inline;
      const v = value(i, flag);
      i++;
      return v;
    };
    if (flag === '--from') args.from = take();
    else if (flag === '--media') args.media = take();
    else if (flag === '--report') args.report = take();
    else if (flag === '--dry-run') args.dryRun = true;
    else if (flag === '--plain') args.plain = true;
    else if (flag === '--full') args.full = true;
    else if (flag === '--batch-size') {
      const n = Number(take());
      if (!Number.isInteger(n) || n < 100 || n > 10000) throw new UsageError('--batch-size takes a whole number from 100 to 10000');
      args.batchSize = n;
    } else if (flag === '--source-timezone') {
      const v = take();
      if (!isOffset(v)) throw new UsageError('--source-timezone takes an offset like -03:00 or Z');
      args.offset = v;
    } else throw new UsageError(`unknown argument ${argv[i] ?? ''}`);
  }
  if (!args.from) throw new UsageError('--from <database URL> is required');
  return args;
}
