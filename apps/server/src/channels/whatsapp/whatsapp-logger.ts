/**
 * Baileys' logger. Baileys narrates every connection step at `info`; at the product's default
 * level only its warnings and errors are worth a line.
 */
import type { SocketConfig } from '@whiskeysockets/baileys';
import { pino } from 'pino';
import type { Config } from '../../core/config.js';

export type BaileysLogger = SocketConfig['logger'];

export function createBaileysLogger(level: Config['logLevel'], bindings: Record<string, unknown> = {}): BaileysLogger {
  return pino({ level: level === 'info' ? 'warn' : level }).child({ channel: 'whatsapp', ...bindings });
}

export function silentBaileysLogger(): BaileysLogger {
  return pino({ level: 'silent' });
}
