/**
 * The logger's redaction, at trace: every kind of secret the server handles is blanked wherever
 * a log object may carry it (top level, one level down, a request's or an HTTP client error's
 * headers), and the line stays one JSON object.
 */
import { describe, expect, it } from 'vitest';
import { collectLog } from '../test/log-lines.js';
import { LOG_REDACT_CENSOR } from './http/log-redaction.js';
import { createLogger } from './logger.js';

const S = (name: string) => `S3CR3T-${name}-value`;

describe('the logger', () => {
  it('blanks passwords, tokens, cookies, 2FA secrets, channel credentials, webhook secrets and session keys', () => {
    const log = collectLog();
    const logger = createLogger('trace', log.destination);
    const headers = {
      authorization: `Bearer ${S('bearer')}`,
      cookie: `jrt=${S('cookie')}`,
      'set-cookie': `jrt=${S('set-cookie')}`,
      'x-api-key': S('x-api-key'),
      'x-hub-signature-256': S('hub-signature'),
      'x-zapdesk-signature': S('zapdesk-signature'),
    };
    const fields = {
      password: S('password'),
      currentPassword: S('currentPassword'),
      newPassword: S('newPassword'),
      token: S('token'),
      accessToken: S('accessToken'),
      refreshToken: S('refreshToken'),
      userApiToken: S('userApiToken'),
      emailPass: S('emailPass'),
      pass: S('pass'),
      vonageApiSecret: S('vonageApiSecret'),
      vonagePrivateKey: S('vonagePrivateKey'),
      vonageSignatureSecret: S('vonageSignatureSecret'),
      appSecret: S('appSecret'),
      verifyToken: S('verifyToken'),
      secret: S('secret'),
      otpauthUrl: S('otpauthUrl'),
      challenge: S('challenge'),
      recoveryCodes: [S('recoveryCodes')],
      creds: { noiseKey: { private: S('creds') } },
      keys: { 'pre-key': S('keys') },
      signedIdentityKey: S('signedIdentityKey'),
      advSecretKey: S('advSecretKey'),
      pairingCode: S('pairingCode'),
    };
    logger.trace({ ...fields, headers, body: fields, webhook: { secret: S('webhook-secret') }, request: { headers }, res: { headers }, err: { config: { headers } } }, 'everything');
    const [line] = log.lines();
    expect(line?.msg).toBe('everything');
    const text = log.text();
    expect(text).not.toContain('S3CR3T');
    expect(line?.password).toBe(LOG_REDACT_CENSOR);
    expect((line?.webhook as Record<string, unknown> | undefined)?.secret).toBe(LOG_REDACT_CENSOR);
  });

  it('keeps what is not secret: ids, codes of errors, a request’s method and address', () => {
    const log = collectLog();
    createLogger('info', log.destination).info({ whatsappId: 3, err: { code: 'ECONNREFUSED', message: 'connect failed' }, method: 'GET' }, 'kept');
    expect(log.lines()[0]).toMatchObject({ whatsappId: 3, err: { code: 'ECONNREFUSED' }, method: 'GET' });
  });
});
