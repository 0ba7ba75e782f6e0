/**
 * Access tokens (short, sent as a bearer header) and refresh tokens (long, in an httpOnly
 * cookie). Both carry the user's tokenVersion: bumping it on logout or password change ends
 * every earlier session. Both also name the sign-in's refresh family (`fam`): a refresh token's
 * id (`jti`) is valid once, and a revoked family ends that sign-in's tokens.
 */
import { randomUUID, webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

type CryptoKey = webcrypto.CryptoKey;

export type TokenClaims = { userId: number; tokenVersion: number; family?: string | undefined; jti?: string | undefined };
export type VerifyResult = { ok: true; claims: TokenClaims } | { ok: false; reason: 'expired' | 'invalid' };

/** How many verified access tokens are remembered (a few per signed-in tab). */
const VERIFIED_LIMIT = 10_000;

export class TokenService {
  readonly #access: Promise<CryptoKey>;
  readonly #refresh: Promise<CryptoKey>;
  readonly #accessTtl: string;
  readonly #refreshTtl: string;
  /**
   * Access tokens whose signature was checked, with their claims and expiry: every API request
   * carries one, and checking the same HMAC again each time was a fifth of a list request's cost.
   * A signature stays valid for the life of the secret; the expiry is checked on every use, and
   * revocation (tokenVersion, families) is the identity's check, made on every request anyway.
   */
  readonly #verified = new Map<string, { claims: TokenClaims; exp: number }>();

  constructor(options: { accessSecret: string; refreshSecret: string; accessTtl: string; refreshTtl: string }) {
    // Imported once: jose imports a raw secret again on every call otherwise.
    this.#access = hmacKey(options.accessSecret);
    this.#refresh = hmacKey(options.refreshSecret);
    this.#accessTtl = options.accessTtl;
    this.#refreshTtl = options.refreshTtl;
  }

  async signAccess(claims: TokenClaims): Promise<string> {
    return sign(claims, 'access', await this.#access, this.#accessTtl);
  }

  async signRefresh(claims: TokenClaims): Promise<string> {
    return sign(claims, 'refresh', await this.#refresh, this.#refreshTtl);
  }

  async verifyAccess(token: string): Promise<VerifyResult> {
    const known = this.#verified.get(token);
    if (known) return known.exp > Date.now() / 1000 ? { ok: true, claims: known.claims } : { ok: false, reason: 'expired' };
    const { exp, ...result } = await verifyToken(token, 'access', await this.#access);
    if (result.ok) {
      if (this.#verified.size >= VERIFIED_LIMIT) this.#verified.delete(this.#verified.keys().next().value as string);
      this.#verified.set(token, { claims: result.claims, exp });
    }
    return result;
  }

  async verifyRefresh(token: string): Promise<VerifyResult> {
    const { exp: _exp, ...result } = await verifyToken(token, 'refresh', await this.#refresh);
    return result;
  }
}

function hmacKey(secret: string): Promise<CryptoKey> {
  return webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

// A random id makes every token unique, so a refresh always hands out a new cookie even
// within the second of the previous one (iat and exp have one-second resolution).
function sign(claims: TokenClaims, typ: string, key: CryptoKey, ttl: string): Promise<string> {
  return new SignJWT({ tv: claims.tokenVersion, typ, ...(claims.family ? { fam: claims.family } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .setJti(claims.jti ?? randomUUID())
    .setSubject(String(claims.userId))
    .setIssuedAt()
    .setExpirationTime(ttl)
    .sign(key);
}

async function verifyToken(token: string, typ: string, key: CryptoKey): Promise<VerifyResult & { exp: number }> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    const userId = Number(payload.sub);
    if (payload['typ'] !== typ || !Number.isInteger(userId) || typeof payload['tv'] !== 'number') {
      return { ok: false, reason: 'invalid', exp: 0 };
    }
    const family = typeof payload['fam'] === 'string' ? payload['fam'] : undefined;
    return { ok: true, claims: { userId, tokenVersion: payload['tv'], family, jti: payload.jti }, exp: payload.exp ?? 0 };
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid', exp: 0 };
  }
}
