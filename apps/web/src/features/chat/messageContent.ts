/** Reads the data bodies of location and contact-card messages. */

export type LocationContent = {
  imageUrl: string;
  mapLink: string;
  description: string;
  /** The place's name (the description's first line) and address (the lines after it). */
  name: string;
  address: string;
  /** The coordinates, read from the map link (q=lat,lng) or the picture's center; null when neither has them. */
  latitude: number | null;
  longitude: number | null;
};

const COORDINATES = /(?:[?&](?:q|center)=)(-?\d{1,3}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)/;

function coordinatesIn(...addresses: string[]): { latitude: number; longitude: number } | null {
  for (const address of addresses) {
    const match = COORDINATES.exec(address);
    const latitude = Number(match?.[1]);
    const longitude = Number(match?.[2]);
    if (match && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180) return { latitude, longitude };
  }
  return null;
}

/** A location body is 'imageUrl|mapLink|description'; the description may itself hold '|'. */
export function parseLocation(body: string): LocationContent {
  const [imageUrl = '', mapLink = '', ...rest] = body.split('|');
  const description = rest.join('|').trim();
  const [name = '', ...addressLines] = description.split('\n');
  const at = coordinatesIn(mapLink, imageUrl);
  return {
    imageUrl,
    mapLink: /^https?:\/\//i.test(mapLink) ? mapLink : '',
    description,
    name: name.trim(),
    address: addressLines.join(' ').trim(),
    latitude: at?.latitude ?? null,
    longitude: at?.longitude ?? null,
  };
}

/** The place on OpenStreetMap, with a marker: opens without any account or key. */
export function openStreetMapLink(latitude: number, longitude: number): string {
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}`;
}

export type VcardContent = { name: string; number: string };

/** The contact's name (FN) and first number (TEL, its waid when present) in a vCard. */
export function parseVcard(body: string): VcardContent {
  const lines = body.split(/\r?\n/);
  const fn = lines.find((line) => /^FN[;:]/i.test(line));
  const tel = lines.find((line) => /^(item\d+\.)?TEL[;:]/i.test(line));
  const name = fn ? fn.slice(fn.indexOf(':') + 1).trim() : '';
  let number = '';
  if (tel) {
    const waid = /waid=(\d+)/i.exec(tel);
    number = waid?.[1] ?? tel.slice(tel.indexOf(':') + 1).trim();
  }
  return { name, number };
}

/** The first web address in a text, for the link card. */
export function firstLink(body: string): string | null {
  const match = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]]/i.exec(body);
  return match ? match[0] : null;
}

export type TextSegment = { text: string; style: 'plain' | 'bold' | 'italic' | 'strike' | 'mono' };

const MARKS = { '*': 'bold', _: 'italic', '~': 'strike' } as const;

/** WhatsApp's marks: ```monospace``` (may span lines), and *bold*, _italic_ and ~strike~ within one line, not nested. */
export function whatsappSegments(body: string): TextSegment[] {
  const segments: TextSegment[] = [];
  const pattern = /```([\s\S]+?)```|([*_~])(?=\S)([^\n]*?\S)\2/g;
  let last = 0;
  for (const match of body.matchAll(pattern)) {
    const mono = match[1];
    const mark = match[2];
    const inner = mono ?? match[3];
    const style = mono !== undefined ? 'mono' : mark === '*' || mark === '_' || mark === '~' ? MARKS[mark] : undefined;
    if (inner === undefined || style === undefined) continue;
    if (match.index > last) segments.push({ text: body.slice(last, match.index), style: 'plain' });
    segments.push({ text: inner, style });
    last = match.index + match[0].length;
  }
  if (last < body.length) segments.push({ text: body.slice(last), style: 'plain' });
  return segments;
}
