/**
 * Access tokens (short, sent as a bearer header) and refresh tokens (long, in an httpOnly
 * cookie). Both carry the user's tokenVersion: bumping it on logout or password change ends
 * every earlier session. Both also name the sign-in's refresh family (`fam`): a refresh token's
 * id (`jti`) is valid once, and a revoked family ends that sign-in's tokens.
 */
import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

export type TokenClaims = { userId: number; tokenVersion: number; family?: string | undefined; jti?: string | undefined };
export type VerifyResult = { ok: true; claims: TokenClaims } | { ok: false; reason: 'expired' | 'invalid' };

export class TokenService {
  readonly #access: Uint8Array;
  readonly #refresh: Uint8Array;
  readonly #accessTtl: string;
  readonly #refreshTtl: string;

  constructor(options: { accessSecret: string; refreshSecret: string; accessTtl: string; refreshTtl: string }) {
    this.#access = new TextEncoder().encode(options.accessSecret);
    this.#refresh = new TextEncoder().encode(options.refreshSecret);
    this.#accessTtl = options.accessTtl;
    this.#refreshTtl = options.refreshTtl;
  }

  signAccess(claims: TokenClaims): Promise<string> {
    return sign(claims, 'access', this.#access, this.#accessTtl);
  }

  signRefresh(claims: TokenClaims): Promise<string> {
    return sign(claims, 'refresh', this.#refresh, this.#refreshTtl);
  }

  verifyAccess(token: string): Promise<VerifyResult> {
    return verifyToken(token, 'access', this.#access);
  }

  verifyRefresh(token: string): Promise<VerifyResult> {
    return verifyToken(token, 'refresh', this.#refresh);
  }
}

// A random id makes every token unique, so a refresh always hands out a new cookie even
// within the second of the previous one (iat and exp have one-second resolution).
function sign(claims: TokenClaims, typ: string, key: Uint8Array, ttl: string): Promise<string> {
  return new SignJWT({ tv: claims.tokenVersion, typ, ...(claims.family ? { fam: claims.family } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .setJti(claims.jti ?? randomUUID())
    .setSubject(String(claims.userId))
    .setIssuedAt()
    .setExpirationTime(ttl)
    .sign(key);
}

async function verifyToken(token: string, typ: string, key: Uint8Array): Promise<VerifyResult> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    const userId = Number(payload.sub);
    if (payload['typ'] !== typ || !Number.isInteger(userId) || typeof payload['tv'] !== 'number') {
      return { ok: false, reason: 'invalid' };
    }
    const family = typeof payload['fam'] === 'string' ? payload['fam'] : undefined;
    return { ok: true, claims: { userId, tokenVersion: payload['tv'], family, jti: payload.jti } };
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}
