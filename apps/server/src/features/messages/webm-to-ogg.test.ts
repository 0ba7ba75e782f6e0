/** Moving a Chromium voice recording (WebM with Opus) into Ogg Opus, the container phones play. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { oggCrc, opusPacketSamples, webmOpusToOgg } from './webm-to-ogg.js';

// 1.5 s recorded by Chromium's MediaRecorder (audio/webm;codecs=opus) from its fake microphone.
const RECORDING = readFileSync(new URL('./fixtures/voice-chromium.webm', import.meta.url));

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
    pages.push({ flags: data[at + 5] ?? 0, granule: data.readBigInt64LE(at + 6), sequence: data.readUInt32LE(at + 18), crcOk: oggCrc(page) === crc, packets });
    at = end;
  }
  return pages;
}

describe('webmOpusToOgg', () => {
  it('keeps every Opus packet, with OpusHead and OpusTags first, valid checksums and the duration as granule', () => {
    const ogg = webmOpusToOgg(RECORDING);
    expect(ogg).not.toBeNull();
    const pages = readOgg(ogg ?? Buffer.alloc(0));
    expect(pages.every((p) => p.crcOk)).toBe(true);
    expect(pages.map((p) => p.sequence)).toEqual(pages.map((_p, i) => i));
    expect(pages[0]).toMatchObject({ flags: 0x02, granule: 0n });
    expect(pages[0]?.packets[0]?.subarray(0, 8).toString('latin1')).toBe('OpusHead');
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
