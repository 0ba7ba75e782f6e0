/**
 * Deterministic helpers for the whaticket seed: a seeded PRNG and real media files (a valid PNG,
 * an Ogg/Opus-looking audio, a PDF, an MP4) written into whaticket's `public/` folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** mulberry32: small, fast, deterministic. */
export function prng(seed: number): { next: () => number; int: (max: number) => number; pick: <T>(items: readonly T[]) => T; hex: (n: number) => string } {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  return {
    next,
    int,
    pick: (items) => items[int(items.length)] as (typeof items)[number],
    hex: (n) => Array.from({ length: n }, () => '0123456789ABCDEF'[int(16)]).join(''),
  };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid RGB PNG of size×size pixels, its colours drawn from the PRNG. */
export function pngBytes(random: ReturnType<typeof prng>, size = 32): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const [r, g, b] = [random.int(256), random.int(256), random.int(256)];
  const raw = Buffer.alloc(size * (size * 3 + 1));
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const o = y * (size * 3 + 1) + 1 + x * 3;
      raw[o] = (r + x * 4) & 255;
      raw[o + 1] = (g + y * 4) & 255;
      raw[o + 2] = (b + random.int(32)) & 255;
    }
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', ihdr), pngChunk('IDAT', zlib.deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}

function noise(random: ReturnType<typeof prng>, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) out[i] = random.int(256);
  return out;
}

export type MediaKind = 'image' | 'audio' | 'application' | 'video';

/**
 * A media file as whaticket names it: with no original name `<5 random>-<ms>.<ext>`, with one
 * `<name>.<5 random>.<ext>` (spaces kept). Returns the name, whaticket's mediaType and the bytes.
 */
export function mediaFile(random: ReturnType<typeof prng>, kind: MediaKind, ms: number): { name: string; mediaType: string; bytes: Buffer } {
  const rid = random.hex(5);
  switch (kind) {
    case 'image':
      return { name: `${rid}-${ms}.png`, mediaType: 'image', bytes: pngBytes(random, 16 + random.int(48)) };
    case 'audio':
      return { name: `${rid}-${ms}.ogg`, mediaType: 'audio', bytes: Buffer.concat([Buffer.from('OggS\0\x02', 'latin1'), Buffer.from('OpusHead'), noise(random, 2000 + random.int(6000))]) };
    case 'video':
      return { name: `${rid}-${ms}.mp4`, mediaType: 'video', bytes: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), noise(random, 4000 + random.int(8000))]) };
    default: {
      const text = `%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${random.hex(64)}\n%%EOF\n`;
      return { name: `Contrato ${2020 + random.int(5)}.${rid}.pdf`, mediaType: 'application', bytes: Buffer.from(text) };
    }
  }
}

export function writeMedia(publicDir: string, name: string, bytes: Buffer): void {
  fs.mkdirSync(publicDir, { recursive: true });
  fs.writeFileSync(path.join(publicDir, name), bytes);
}
