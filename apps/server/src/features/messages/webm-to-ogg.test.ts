/** Moving a Chromium voice recording (WebM with Opus) into Ogg Opus, the container phones play. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { oggCrc, opusPacketSamples, webmOpusToOgg } from './webm-to-ogg.js';

// 1.5 s recorded by Chromium's MediaRecorder (audio/webm;codecs=opus) from its fake microphone.
const RECORDING = readFileSync(new URL('./fixtures/voice-chromium.webm', import.meta.url));
// 0.5 s of a 440 Hz tone encoded by opus-tools' opusenc (libopus): an Ogg Opus file made by
// another program, to check the checksum reading against.
const OPUSENC = readFileSync(new URL('./fixtures/opusenc-sine.ogg', import.meta.url));

/**
 * The Ogg page checksum, computed here bit by bit from its definition (CRC-32, polynomial
 * 0x04C11DB7, not reflected, initial value 0, no final xor), independently of the module's table.
 */
function referenceCrc(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
    crc >>>= 0;
  }
  return crc >>> 0;
}

type Page = { flags: number; granule: bigint; sequence: number; crcOk: boolean; packets: Buffer[] };

/** Reads Ogg pages back, checking each checksum, and joins the lacing values into packets. */
function readOgg(data: Buffer): Page[] {
  const pages: Page[] = [];
  let at = 0;
  while (at < data.length) {
    expect(data.subarray(at, at + 4).toString('latin1')).toBe('OggS');
    const segments = data[at + 26] ?? 0;
    const lacing = [...data.subarray(at + 27, at + 27 + segments)];
    const bodyLength = lacing.reduce((a, b) => a + b, 0);
    const end = at + 27 + segments + bodyLength;
    const page = Buffer.from(data.subarray(at, end));
    const crc = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    const packets: Buffer[] = [];
    let offset = at + 27 + segments;
    let current = 0;
    for (const value of lacing) {
      current += value;
      if (value < 255) {
        packets.push(data.subarray(offset, offset + current));
        offset += current;
        current = 0;
      }
    }
    pages.push({ flags: data[at + 5] ?? 0, granule: data.readBigInt64LE(at + 6), sequence: data.readUInt32LE(at + 18), crcOk: referenceCrc(page) === crc, packets });
    at = end;
  }
  return pages;
}

describe('the Ogg checksum', () => {
  it('is right by its definition: the standard check value, and every page of a file opusenc wrote', () => {
    // CRC-32/CKSUM's check value is 0x765E7680 with a final xor of 0xFFFFFFFF; Ogg has none.
    expect(referenceCrc(Buffer.from('123456789'))).toBe((0x765e7680 ^ 0xffffffff) >>> 0);
    const pages = readOgg(OPUSENC);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.every((p) => p.crcOk)).toBe(true);
  });

  it('the module computes the same checksum as the definition', () => {
    for (const sample of [Buffer.from('123456789'), OPUSENC.subarray(0, 200), RECORDING.subarray(0, 4096), Buffer.alloc(0)]) expect(oggCrc(sample)).toBe(referenceCrc(sample));
  });
});

describe('webmOpusToOgg', () => {
  it('keeps every Opus packet, with OpusHead and OpusTags first, valid checksums and the duration as granule', () => {
    const ogg = webmOpusToOgg(RECORDING);
    expect(ogg).not.toBeNull();
    const pages = readOgg(ogg ?? Buffer.alloc(0));
    expect(pages.every((p) => p.crcOk)).toBe(true);
    expect(pages.map((p) => p.sequence)).toEqual(pages.map((_p, i) => i));
    expect(pages[0]).toMatchObject({ flags: 0x02, granule: 0n });
    expect(pages[0]?.packets[0]?.subarray(0, 8).toString('latin1')).toBe('OpusHead');
    // Chromium writes a pre-skip of 0; the file carries libopus' 312 samples, as opusenc's does.
    expect(pages[0]?.packets[0]?.readUInt16LE(10)).toBe(312);
    expect(readOgg(OPUSENC)[0]?.packets[0]?.readUInt16LE(10)).toBe(312);
    expect(pages[1]?.packets[0]?.subarray(0, 8).toString('latin1')).toBe('OpusTags');
    expect(pages.at(-1)?.flags).toBe(0x04);
    const audio = pages.slice(2).flatMap((p) => p.packets);
    // The recording lasted 1.5 s: Chromium packs three 20 ms frames a packet, so about 25
    // packets and 72,000 samples at 48 kHz.
    expect(audio.length).toBeGreaterThan(20);
    const samples = audio.reduce((n, packet) => n + opusPacketSamples(packet), 0);
    expect(pages.at(-1)?.granule).toBe(BigInt(samples));
    expect(samples / 48_000).toBeGreaterThan(1.2);
    expect(samples / 48_000).toBeLessThan(2);
    // Granules only grow, page after page.
    const granules = pages.map((p) => p.granule);
    expect([...granules].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(granules);
  });

  it('refuses what is not WebM with Opus, so it is sent as it came', () => {
    expect(webmOpusToOgg(Buffer.alloc(12_000, 7))).toBeNull();
    expect(webmOpusToOgg(Buffer.from('OggS not webm'))).toBeNull();
    expect(webmOpusToOgg(RECORDING.subarray(0, 40))).toBeNull();
  });

  it('counts samples from the Opus TOC byte', () => {
    expect(opusPacketSamples(Buffer.from([0xfc]))).toBe(960); // CELT 20 ms, one frame
    expect(opusPacketSamples(Buffer.from([0x78]))).toBe(960); // hybrid 20 ms
    expect(opusPacketSamples(Buffer.from([0x80]))).toBe(120); // CELT 2.5 ms
    expect(opusPacketSamples(Buffer.from([0x11]))).toBe(3840); // SILK 40 ms, code 1: two frames
    expect(opusPacketSamples(Buffer.from([0xfb, 0x03]))).toBe(2880); // CELT 20 ms, code 3, three frames
  });
});
