/**
 * The importer's written rules that need no database: how a whaticket value becomes ours.
 * Each returns what it did so the report can say why a row changed.
 */
import path from 'node:path';
import type { MediaType, TicketStatus } from '@zapdesk/shared/domain';
import { normalizeNumber } from '@zapdesk/shared/phone-numbers';

/** A contact's number our way: digits only for a person; a group keeps its id (digits and '-'). */
export function normaliseNumber(raw: string, isGroup: boolean): { number: string; changed: boolean } | undefined {
  const trimmed = raw.trim().replace(/@(c|g|s)\.us$|@s\.whatsapp\.net$/i, '');
  const number = isGroup ? trimmed.replace(/[^\d-]/g, '').replace(/^-+|-+$/g, '') : normalizeNumber(trimmed);
  if (!/\d/.test(number)) return undefined;
  return { number, changed: number !== raw };
}

const MEDIA_TYPES: Record<string, MediaType> = {
  image: 'image',
  sticker: 'image',
  audio: 'audio',
  ptt: 'audio',
  video: 'video',
  location: 'location',
  vcard: 'vcard',
  multi_vcard: 'vcard',
};

/**
 * whaticket's mediaType is the mimetype's first half for files ('image', 'application'...) and
 * WhatsApp's message type otherwise ('chat', 'vcard', 'location'...). A text is no media.
 */
export function mapMediaType(type: string | null, hasFile: boolean): MediaType | null {
  const key = (type ?? '').trim().toLowerCase();
  const known = MEDIA_TYPES[key];
  if (known) return known;
  if (hasFile) return 'other';
  return null;
}

const STATUSES = new Set<string>(['open', 'pending', 'closed']);

/** A ticket status we know; anything else is closed (reported). */
export function mapStatus(status: string | null): { status: TicketStatus; known: boolean } {
  const s = (status ?? '').trim().toLowerCase();
  return STATUSES.has(s) ? { status: s as TicketStatus, known: true } : { status: 'closed', known: false };
}

/** whaticket's profiles are 'admin' and 'user'; another one imports as 'user' (reported). */
export function mapProfile(profile: string | null): { profile: 'admin' | 'user'; known: boolean } {
  const p = (profile ?? '').trim().toLowerCase();
  if (p === 'admin' || p === 'user') return { profile: p, known: true };
  return { profile: 'user', known: false };
}

/**
 * A DATETIME read as text ('2024-01-31 10:20:30') in the zone whaticket's Sequelize wrote it in
 * ('-03:00' in its config), as an ISO instant. Dates and strings with their own zone pass through.
 */
export function toIso(value: unknown, offset: string): string {
  if (value instanceof Date) return value.toISOString();
  const text = toText(value).trim();
  const local = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?$/.exec(text);
  if (local) return new Date(`${local[1]}T${local[2]}${local[3] ?? ''}${offset === 'Z' ? 'Z' : offset}`).toISOString();
  const parsed = new Date(text);
  return Number.isNaN(parsed.getTime()) ? new Date(0).toISOString() : parsed.toISOString();
}

/** The reverse of toIso for a MySQL source: an instant as a DATETIME text in the source's zone. */
export function toLocalDatetime(date: Date, offset: string): string {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(offset);
  const minutes = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  return new Date(date.getTime() + minutes * 60_000).toISOString().replace('T', ' ').replace('Z', '');
}

export function isOffset(value: string): boolean {
  return value === 'Z' || /^[+-](0\d|1[0-4]):[0-5]\d$/.test(value);
}

/** MySQL gives 0/1 (or '0'/'1'), PostgreSQL true/false. */
export function toBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}

export function toInt(value: unknown, fallback = 0): number {
  const n = Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
}

export function toText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return JSON.stringify(value);
}

/**
 * A media file name of whaticket's public folder: a plain name (no folder, no '..'). whaticket
 * stores the bare name; a full URL keeps its last segment.
 */
export function mediaFileName(mediaUrl: string | null): { name: string } | { unsafe: string } | undefined {
  const raw = (mediaUrl ?? '').trim();
  if (!raw) return undefined;
  let last = raw;
  if (/^https?:\/\//i.test(raw)) {
    try {
      last = decodeURIComponent(new URL(raw).pathname.split('/').pop() ?? '');
    } catch {
      return { unsafe: raw };
    }
  }
  if (!last || last.includes('/') || last.includes('\\') || last === '.' || last === '..' || last.includes('\0')) return { unsafe: raw };
  return { name: path.basename(last) };
}
