/**
 * The Baileys socket as the WhatsApp driver sees it: the part of it the driver uses (tests hand
 * in a fake of this shape), the driver's options, and what a closed socket means.
 */
import { DisconnectReason, downloadMediaMessage, type UserFacingSocketConfig, type WAMessage, type WASocket } from '@whiskeysockets/baileys';
import type { ChannelAuthStore } from '../connection-store.js';
import type { BaileysLogger } from './whatsapp-logger.js';

export type WASocketLike = Pick<
  WASocket,
  | 'sendMessage'
  | 'readMessages'
  | 'logout'
  | 'end'
  | 'onWhatsApp'
  | 'requestPairingCode'
  | 'profilePictureUrl'
  | 'groupMetadata'
  | 'groupFetchAllParticipating'
  | 'groupCreate'
  | 'groupUpdateSubject'
  | 'groupUpdateDescription'
  | 'groupSettingUpdate'
  | 'updateMediaMessage'
  | 'rejectCall'
  | 'user'
> &
  Partial<Pick<WASocket, 'fetchMessageHistory'>> & {
    ev: Pick<WASocket['ev'], 'on'>;
    signalRepository: { lidMapping: Pick<WASocket['signalRepository']['lidMapping'], 'getPNForLID'> };
  };

export type MediaDownloader = (message: WAMessage, context: { reuploadRequest: (message: WAMessage) => Promise<WAMessage>; logger: BaileysLogger }) => Promise<Buffer>;

export type WhatsappDriverOptions = {
  whatsappId: number;
  auth: ChannelAuthStore;
  logger?: BaileysLogger;
  /** Builds the socket; Baileys' makeWASocket unless a test hands in a fake. */
  makeSocket?: (config: UserFacingSocketConfig) => WASocketLike;
  /** Reads a media message's bytes; Baileys' downloadMediaMessage unless a test hands in a fake. */
  downloadMedia?: MediaDownloader;
  /** How long fetchHistory waits for the phone's answer; HISTORY_TIMEOUT_MS unless a test shortens it. */
  historyTimeoutMs?: number;
};

export const defaultDownload: MediaDownloader = (message, context) => downloadMediaMessage(message, 'buffer', {}, context);

/** Reconnect back-off after an unexpected close: 1 s, 2 s, 4 s ... 60 s, then give up. */
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 60_000;
export const MAX_RECONNECT_ATTEMPTS = 15;
/** Baileys ends a socket with 408 once its QR codes run out (about 2.5 min); this many sockets, then TIMEOUT. */
export const MAX_QR_ROUNDS = 3;

export function reconnectDelayMs(attempt: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, attempt - 1));
}

/** The HTTP-like status code Baileys puts on a close error (a Boom). */
export function statusCodeOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('output' in error)) return undefined;
  const output = error.output;
  if (typeof output !== 'object' || output === null || !('statusCode' in output)) return undefined;
  return typeof output.statusCode === 'number' ? output.statusCode : undefined;
}

/** What a closed socket means for the session. */
export type CloseOutcome = 'restart' | 'logged-out' | 'replaced' | 'qr-expired' | 'lost';

export function closeOutcome(code: number | undefined, qrShown: boolean): CloseOutcome {
  // Normal right after pairing: the server wants a fresh socket with the new credentials.
  if (code === DisconnectReason.restartRequired) return 'restart';
  if (code === DisconnectReason.loggedOut || code === DisconnectReason.forbidden) return 'logged-out';
  // Another socket took these credentials over: reconnecting would only take them back.
  if (code === DisconnectReason.connectionReplaced) return 'replaced';
  // This socket's QR codes ran out without a scan.
  if (code === DisconnectReason.timedOut && qrShown) return 'qr-expired';
  return 'lost';
}
