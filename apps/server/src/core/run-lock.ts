/**
 * DATA_DIR/zapdesk.pid while the server runs: how `npm run restore` tells that the product is
 * running on this DATA_DIR. A file left by a killed server names a process that is gone: it is
 * read as stopped.
 */
import fs from 'node:fs';
import path from 'node:path';

export const RUN_FILE = 'zapdesk.pid';

/** Writes this process's id; removed again when the process exits. */
export function markRunning(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, RUN_FILE);
  fs.writeFileSync(file, `${process.pid}\n`, { mode: 0o600 });
  const release = () => {
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
  process.once('exit', release);
  return release;
}

/** The id of the server running on `dataDir`, if its process is alive. */
export function runningPid(dataDir: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dataDir, RUN_FILE), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: alive, owned by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}
