/**
 * `npm run backup [-- --out <folder or file>]` and `npm run restore <archive> [-- --force]`.
 * Both read the server's configuration (DATABASE_URL, DATA_DIR, MEDIA_DIR). Exit codes: 0 done,
 * 1 refused or failed (the message says why; a refused restore changed nothing), 2 usage.
 */
import { loadConfig } from '../../core/config.js';
import { runBackup } from './backup.js';
import { OpsError, UsageError } from './errors.js';
import { runRestore } from './restore.js';

const USAGE = `usage:
  npm run backup [-- --out <folder or file.tar.gz>]
  npm run restore <archive.tar.gz> [-- --force]`;

function megabytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

type Command = { name: 'backup'; out: string | undefined } | { name: 'restore'; archive: string; force: boolean };

function parseCommand(argv: string[]): Command {
  const [name, ...rest] = argv;
  if (name === 'backup') {
    let out: string | undefined;
    for (let i = 0; i < rest.length; i += 1) {
      const arg = rest[i];
      if (arg === '--out' && rest[i + 1] !== undefined) out = rest[(i += 1)];
      else if (arg?.startsWith('--out=')) out = arg.slice('--out='.length);
      else throw new UsageError(`unknown argument: ${arg}`);
    }
    return { name, out };
  }
  if (name === 'restore') {
    const force = rest.includes('--force');
    const positional = rest.filter((arg) => arg !== '--force');
    const unknown = positional.find((arg) => arg.startsWith('--'));
    if (unknown) throw new UsageError(`unknown argument: ${unknown}`);
    if (positional.length !== 1 || !positional[0]) throw new UsageError('restore needs exactly one archive');
    return { name, archive: positional[0], force };
  }
  throw new UsageError(name ? `unknown command: ${name}` : 'no command given');
}

async function main(): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  try {
    const config = loadConfig();
    if (command.name === 'backup') {
      const r = await runBackup(config, { out: command.out });
      process.stdout.write(
        `backup written: ${r.file} (${megabytes(r.size)}; ${r.manifest.database} database ${megabytes(r.databaseBytes)}, ` +
          `${r.mediaFiles} media file${r.mediaFiles === 1 ? '' : 's'} ${megabytes(r.mediaBytes)}, ` +
          `secrets ${r.manifest.files.some((f) => f.path === 'secrets.json') ? 'included' : 'absent'}; ZapDesk ${r.manifest.productVersion}, schema ${r.manifest.schemaVersion})\n`,
      );
      return 0;
    }
    const r = await runRestore(config, command.archive, { force: command.force });
    process.stdout.write(
      `restored ${command.archive} (made ${r.manifest.createdAt} by ZapDesk ${r.manifest.productVersion}, schema ${r.manifest.schemaVersion}): ` +
        `${r.manifest.database} database, ${r.mediaFiles} media file${r.mediaFiles === 1 ? '' : 's'}, secrets.json${r.kept.length > 0 ? `; the previous copies are kept as ${r.kept.join(', ')}` : ''}. ` +
        'Start ZapDesk now: it applies any newer migrations on start.\n',
    );
    return 0;
  } catch (error) {
    if (error instanceof OpsError) {
      process.stderr.write(`${command.name} refused: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`${command.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

process.exitCode = await main();
