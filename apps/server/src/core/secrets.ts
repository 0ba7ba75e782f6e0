/**
 * Secrets that must never have a hard-coded default: taken from the environment, or generated
 * once on first start and kept in DATA_DIR/secrets.json (mode 600): the JWT secrets, the key
 * that seals secret settings, and the first admin's generated password until it is changed.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from './config.js';
import { keyFromPassphrase } from './secret-box.js';

const ZSecretsFileSchema = z.object({
  jwtSecret: z.string().min(32),
  jwtRefreshSecret: z.string().min(32),
  /** Removed once the admin has changed it: it opens nothing any more. */
  initialAdminPassword: z.string().min(5).optional(),
  settingsKey: z.string().min(32).optional(),
});
type SecretsFile = z.infer<typeof ZSecretsFileSchema>;

export type Secrets = {
  jwtSecret: string;
  jwtRefreshSecret: string;
  /** The first admin's password: ADMIN_PASSWORD, or the generated one while it is kept. */
  adminPassword: string | undefined;
  adminPasswordGenerated: boolean;
  /** Seals secret settings at rest (see secret-box.ts). */
  settingsKey: Buffer;
};

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

function secretsFile(config: Config): string {
  return path.join(config.dataDir, 'secrets.json');
}

/** Written whole to a temporary file first, owner-only, then renamed: never half a file. */
function writeSecretsFile(config: Config, stored: SecretsFile): void {
  const file = secretsFile(config);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(stored, null, 2), { mode: 0o600 });
  fs.renameSync(temporary, file);
}

/** Creates DATA_DIR owner-only when it does not exist yet. */
export function ensureDataDir(config: Config): void {
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
}

export function loadSecrets(config: Config): Secrets {
  const file = secretsFile(config);
  ensureDataDir(config);
  let stored: SecretsFile;
  if (fs.existsSync(file)) {
    stored = ZSecretsFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
    // Files written by earlier versions may be readable by others.
    fs.chmodSync(file, 0o600);
  } else {
    // A password is generated only when none is given: one from ADMIN_PASSWORD needs no copy on disk.
    stored = { jwtSecret: randomToken(48), jwtRefreshSecret: randomToken(48), ...(config.adminPassword === undefined ? { initialAdminPassword: randomToken(9) } : {}) };
  }
  if (!config.secretsKey && !stored.settingsKey) stored = { ...stored, settingsKey: randomToken(32) };
  writeSecretsFile(config, stored);
  return {
    jwtSecret: config.jwtSecret ?? stored.jwtSecret,
    jwtRefreshSecret: config.jwtRefreshSecret ?? stored.jwtRefreshSecret,
    adminPassword: config.adminPassword ?? stored.initialAdminPassword,
    adminPasswordGenerated: config.adminPassword === undefined,
    settingsKey: keyFromPassphrase(config.secretsKey ?? stored.settingsKey ?? ''),
  };
}

/** The generated first password kept in secrets.json now, if any. */
export function storedInitialAdminPassword(config: Config): string | undefined {
  const file = secretsFile(config);
  if (!fs.existsSync(file)) return undefined;
  return ZSecretsFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8'))).initialAdminPassword;
}

/** The generated first password was changed: it leaves secrets.json. */
export function forgetInitialAdminPassword(config: Config): void {
  const file = secretsFile(config);
  if (!fs.existsSync(file)) return;
  const stored = ZSecretsFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (stored.initialAdminPassword === undefined) return;
  const { initialAdminPassword: _gone, ...rest } = stored;
  writeSecretsFile(config, rest);
}

/** A first admin must be created and no password is known any more: a new one is generated and kept. */
export function newInitialAdminPassword(config: Config): string {
  const stored = ZSecretsFileSchema.parse(JSON.parse(fs.readFileSync(secretsFile(config), 'utf8')));
  const password = randomToken(9);
  writeSecretsFile(config, { ...stored, initialAdminPassword: password });
  return password;
}
