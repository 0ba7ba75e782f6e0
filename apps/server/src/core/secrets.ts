/**
 * Secrets that must never have a hard-coded default: taken from the environment, or generated
 * once on first start and kept in DATA_DIR/secrets.json (mode 600).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from './config.js';

const ZSecretsFileSchema = z.object({
  jwtSecret: z.string().min(32),
  jwtRefreshSecret: z.string().min(32),
  initialAdminPassword: z.string().min(5),
});

export type Secrets = { jwtSecret: string; jwtRefreshSecret: string; adminPassword: string; adminPasswordGenerated: boolean };

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function loadSecrets(config: Config): Secrets {
  const file = path.join(config.dataDir, 'secrets.json');
  let stored: z.infer<typeof ZSecretsFileSchema>;
  if (fs.existsSync(file)) {
    stored = ZSecretsFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  } else {
    stored = { jwtSecret: randomToken(48), jwtRefreshSecret: randomToken(48), initialAdminPassword: randomToken(9) };
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return {
    jwtSecret: config.jwtSecret ?? stored.jwtSecret,
    jwtRefreshSecret: config.jwtRefreshSecret ?? stored.jwtRefreshSecret,
    adminPassword: config.adminPassword ?? stored.initialAdminPassword,
    adminPasswordGenerated: config.adminPassword === undefined,
  };
}
