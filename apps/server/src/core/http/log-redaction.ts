/**
 * What the log may show, at every level. Query values that are secrets are replaced: Meta's
 * webhook check carries the verify token in its address, signed media addresses their
 * signature, and a tool API client may send its token there. Every log line also goes through
 * pino's redaction: headers that carry credentials (wherever a plugin logs a request's headers,
 * as the multipart parser does at trace level) and the secret fields of bodies and errors.
 */
import type { FastifyRequest } from 'fastify';

/** Headers that carry a credential or a signature. */
const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-hub-signature',
  'x-hub-signature-256',
  'x-signature',
  'x-access-token',
  'x-auth-token',
  'x-zapdesk-signature',
];
/** Fields of a body, an error or a debug object that hold a secret. */
const SECRET_FIELDS = [
  'password',
  'currentPassword',
  'token',
  'accessToken',
  'access_token',
  'refreshToken',
  'apiKey',
  'apiSecret',
  'api_key',
  'api_secret',
  'appSecret',
  'verifyToken',
  'secret',
  'emailPass',
  'vonageApiSecret',
  'vonagePrivateKey',
  'vonageSignatureSecret',
  'privateKey',
  'signatureSecret',
  'userApiToken',
  'newPassword',
  'pass',
  'passwordHash',
  'cookie',
  'authorization',
  // Two-factor sign-in: the pending secret, its otpauth:// link, the challenge between the steps, recovery codes.
  'otpauthUrl',
  'challenge',
  'recoveryCode',
  'recoveryCodes',
  // A WhatsApp session's auth state (Baileys' keys), should a driver ever log it.
  'creds',
  'keys',
  'noiseKey',
  'pairingEphemeralKeyPair',
  'signedIdentityKey',
  'signedPreKey',
  'advSecretKey',
  'privKey',
  'pairingCode',
  'mediaKey',
];
/** Where headers sit in what gets logged: a request or answer, a plugin's options, an HTTP client's error. */
const HEADER_HOLDERS = [
  'headers',
  'req.headers',
  'res.headers',
  'request.headers',
  'response.headers',
  'busboyOptions.headers',
  'err.headers',
  'err.config.headers',
  'err.request.headers',
  'err.response.headers',
  'error.config.headers',
  'error.response.headers',
];
/** Where secret fields sit: the top of a log object, one level below (body, options, err), two levels below. */
const FIELD_HOLDERS = ['', '*.', 'err.config.', 'err.response.data.', 'error.response.data.'];

/** The paths pino's `redact` option blanks out (fast-redact syntax; a header name with a dash is quoted). */
export const LOG_REDACT_PATHS: string[] = [
  ...HEADER_HOLDERS.flatMap((holder) => SECRET_HEADERS.map((name) => `${holder}["${name}"]`)),
  ...FIELD_HOLDERS.flatMap((holder) => SECRET_FIELDS.map((name) => `${holder}${name}`)),
];

export const LOG_REDACT_CENSOR = '[redacted]';

const SECRET_QUERY = /([?&](?:hub\.verify_token|signature|token|access_token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

export function requestSerializer(request: FastifyRequest): Record<string, unknown> {
  return { method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket.remotePort };
}
