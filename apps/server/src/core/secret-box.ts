/**
 * Secrets at rest (settings such as emailPass and vonageApiSecret, tokens of integrations):
 * AES-256-GCM through node:crypto, a fresh 96-bit nonce per value, stored as
 * `enc:v1:<nonce>:<tag>:<ciphertext>` (base64url). The key is SECRETS_KEY (any passphrase of 16
 * characters or more, hashed to 32 bytes) or a random one generated into secrets.json.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';

export function keyFromPassphrase(passphrase: string): Buffer {
  return createHash('sha256').update(passphrase, 'utf8').digest();
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export function seal(key: Buffer, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${PREFIX}${nonce.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${body.toString('base64url')}`;
}

/** The plaintext of a sealed value; throws when the key is not the one it was sealed with. */
export function unseal(key: Buffer, stored: string): string {
  if (!isSealed(stored)) throw new Error('Not a sealed value');
  const [nonce = '', tag = '', body = ''] = stored.slice(PREFIX.length).split(':');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
