/**
 * Voice notes recorded in Chromium come as WebM with Opus inside; WhatsApp phones play voice
 * notes as Ogg Opus only. Both containers carry the same Opus packets, so this moves them from
 * one to the other (RFC 7845 Ogg encapsulation) without decoding anything. No ffmpeg needed.
 */

const ID = {
  ebml: 0x1a45dfa3,
  segment: 0x18538067,
  cluster: 0x1f43b675,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  audio: 0xe1,
  blockGroup: 0xa0,
  codecId: 0x86,
  codecPrivate: 0x63a2,
  channels: 0x9f,
  simpleBlock: 0xa3,
  block: 0xa1,
} as const;

/** Master elements whose children are read in line (their size may be 'unknown' in a live recording). */
const DESCEND = new Set<number>([ID.segment, ID.cluster, ID.tracks, ID.trackEntry, ID.audio, ID.blockGroup]);
const OPUS_RATE = 48_000;
/** An Ogg page holds at most 255 lacing values; 50 packets (one second of 20 ms packets) keeps pages small. */
const PACKETS_PER_PAGE = 50;

type Vint = { value: number; length: number; unknown: boolean };

function readVint(data: Buffer, at: number, keepMarker: boolean): Vint | null {
  const first = data[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (length > 8 || at + length > data.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i += 1) {
    const byte = data[at + i] ?? 0;
    value = value * 256 + byte;
    if (byte !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

/** The number of 48 kHz samples an Opus packet decodes to (RFC 6716, section 3.1). */
export function opusPacketSamples(packet: Buffer): number {
  const toc = packet[0];
  if (toc === undefined) return 0;
  const config = toc >> 3;
  const frameMs = config < 12 ? [10, 20, 40, 60][config % 4] : config < 16 ? [10, 20][config % 2] : [2.5, 5, 10, 20][config % 4];
  const code = toc & 3;
  const frames = code === 0 ? 1 : code === 3 ? (packet[1] ?? 0) & 0x3f : 2;
  return Math.round((frames * (frameMs ?? 20) * OPUS_RATE) / 1000);
}

type OpusTrack = { head: Buffer | null; channels: number; packets: Buffer[] };

function readWebm(data: Buffer): OpusTrack | null {
  const track: OpusTrack = { head: null, channels: 1, packets: [] };
  let codec = '';
  let at = 0;
  while (at < data.length) {
    const id = readVint(data, at, true);
    if (!id) return null;
    const size = readVint(data, at + id.length, false);
    if (!size) return null;
    const start = at + id.length + size.length;
    if (DESCEND.has(id.value)) {
      at = start;
      continue;
    }
    if (size.unknown) return null;
    const end = start + size.value;
    if (end > data.length) break; // A recording cut short: keep what is whole.
    const body = data.subarray(start, end);
    if (id.value === ID.codecId) codec = body.toString('latin1');
    else if (id.value === ID.codecPrivate) track.head = Buffer.from(body);
    else if (id.value === ID.channels) track.channels = body.readUIntBE(0, Math.min(body.length, 6)) || 1;
    else if (id.value === ID.simpleBlock || id.value === ID.block) {
      const trackNumber = readVint(body, 0, false);
      if (!trackNumber) return null;
      const flags = body[trackNumber.length + 2] ?? 0;
      // Laced blocks never come from MediaRecorder; they are refused rather than guessed at.
      if (flags & 0x06) return null;
      track.packets.push(Buffer.from(body.subarray(trackNumber.length + 3)));
    }
    at = end;
  }
  if (codec !== 'A_OPUS' || track.packets.length === 0) return null;
  return track;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i += 1) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit += 1) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** The Ogg page checksum: CRC-32, polynomial 0x04C11DB7, not reflected, initial value 0. */
export function oggCrc(page: Buffer): number {
  let crc = 0;
  for (const byte of page) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc >>> 0;
}

function oggPage(options: { packets: Buffer[]; granule: bigint; serial: number; sequence: number; flags: number }): Buffer {
  const lacing: number[] = [];
  for (const packet of options.packets) {
    let left = packet.length;
    while (left >= 255) {
      lacing.push(255);
      left -= 255;
    }
    lacing.push(left);
  }
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'latin1');
  header[4] = 0;
  header[5] = options.flags;
  header.writeBigInt64LE(options.granule, 6);
  header.writeUInt32LE(options.serial, 14);
  header.writeUInt32LE(options.sequence, 18);
  header.writeUInt32LE(0, 22);
  header[26] = lacing.length;
  lacing.forEach((value, i) => (header[27 + i] = value));
  const page = Buffer.concat([header, ...options.packets]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

/** libopus' look-ahead at 48 kHz: what an encoder's first samples hold before the audio begins. */
const LIBOPUS_PRESKIP = 312;

function opusHead(channels: number): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1;
  head[9] = channels;
  head.writeUInt16LE(LIBOPUS_PRESKIP, 10);
  head.writeUInt32LE(OPUS_RATE, 12);
  return head;
}

function opusTags(): Buffer {
  const vendor = Buffer.from('ZapDesk', 'utf8');
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'latin1');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  return tags;
}

/** Ogg Opus holding the same packets as the WebM recording, or null when it is not WebM with Opus. */
export function webmOpusToOgg(data: Buffer, serial = 0x5a415044): Buffer | null {
  const track = readWebm(data);
  if (!track) return null;
  const head = track.head?.subarray(0, 8).toString('latin1') === 'OpusHead' && track.head.length >= 19 ? Buffer.from(track.head) : opusHead(track.channels);
  // Chromium writes a pre-skip of 0 although its libopus encoder has the usual 6.5 ms of
  // look-ahead: players (and opusinfo) expect it, so the standard 312 samples go in.
  if (head.readUInt16LE(10) === 0) head.writeUInt16LE(LIBOPUS_PRESKIP, 10);
  const pages = [oggPage({ packets: [head], granule: 0n, serial, sequence: 0, flags: 0x02 }), oggPage({ packets: [opusTags()], granule: 0n, serial, sequence: 1, flags: 0 })];
  let granule = 0n;
  let page: Buffer[] = [];
  let lacing = 0;
  const flush = (last: boolean) => {
    pages.push(oggPage({ packets: page, granule, serial, sequence: pages.length, flags: last ? 0x04 : 0 }));
    page = [];
    lacing = 0;
  };
  track.packets.forEach((packet, i) => {
    const values = Math.floor(packet.length / 255) + 1;
    if (page.length > 0 && (lacing + values > 255 || page.length >= PACKETS_PER_PAGE)) flush(false);
    page.push(packet);
    lacing += values;
    granule += BigInt(opusPacketSamples(packet));
    if (i === track.packets.length - 1) flush(true);
  });
  return Buffer.concat(pages);
}
