/**
 * Baileys' logger. Baileys narrates every connection step at `info`; at the product's default
 * level only its warnings and errors are worth a line. A child of the server's logger: the same
 * JSON lines, the same redaction (a session's keys included), the context's reqId.
 */
import type { SocketConfig } from '@whiskeysockets/baileys';
import { pino } from 'pino';
import type { Config } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';

export type BaileysLogger = SocketConfig['logger'];

export function createBaileysLogger(log: Logger, level: Config['logLevel'], bindings: Record<string, unknown> = {}): BaileysLogger {
  return log.child({ channel: 'whatsapp', ...bindings }, { level: level === 'info' ? 'warn' : level });
}

export function silentBaileysLogger(): BaileysLogger {
  return pino({ level: 'silent' });
}
