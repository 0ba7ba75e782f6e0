/** What an inbound message is stored as: body, kind and list line. */
import { describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../../channels/channel.js';
import { lastMessageText, locationBody, storedBody, storedMediaType } from './message-content.js';

const base: InboundMessage = { providerId: 'X', chat: { kind: 'person', number: '5511999990000' }, fromMe: false, body: 'oi', timestamp: new Date(0) };

describe('inbound message content', () => {
  it("writes a location in the spec's image|link|description form", () => {
    expect(locationBody({ latitude: -23.5, longitude: -46.6, description: 'Av. Paulista' })).toBe(
      'https://maps.googleapis.com/maps/api/staticmap?center=-23.5,-46.6&zoom=15&size=300x200&markers=-23.5,-46.6|https://maps.google.com/maps?q=-23.5,-46.6&z=17|Av. Paulista',
    );
    const located = { ...base, body: '', location: { latitude: 1, longitude: 2 } };
    expect(storedMediaType(located)).toBe('location');
    expect(storedBody(located).endsWith('|')).toBe(true);
    expect(lastMessageText(located)).toBe('📍 Location');
  });

  it('keeps a contact card as its vcard, text as typed, and names media in the list line', () => {
    const card = { ...base, body: '', vcard: 'BEGIN:VCARD\nFN:Ana\nEND:VCARD' };
    expect([storedMediaType(card), storedBody(card), lastMessageText(card)]).toEqual(['vcard', card.vcard, '👤 Contact']);
    expect([storedMediaType(base), storedBody(base), lastMessageText(base)]).toEqual([null, 'oi', 'oi']);
    const load = () => Promise.resolve(Buffer.alloc(0));
    expect(lastMessageText({ ...base, body: '', media: { mediaType: 'audio', mimetype: 'audio/ogg', filename: 'a.ogg', load } })).toBe('🎤 Audio');
    expect(lastMessageText({ ...base, body: '', media: { mediaType: 'other', mimetype: 'application/pdf', filename: 'nota.pdf', load } })).toBe('📄 nota.pdf');
    expect(storedMediaType({ ...base, media: { mediaType: 'image', mimetype: 'image/png', filename: 'a.png', load } })).toBe('image');
    // A photo or video without a caption is a marker the web app shows in the reader's language, never the file's name.
    expect(lastMessageText({ ...base, body: '', media: { mediaType: 'image', mimetype: 'image/jpeg', filename: '3EB0C7.jpeg', load } })).toBe('📷 Photo');
    expect(lastMessageText({ ...base, body: '', media: { mediaType: 'video', mimetype: 'video/mp4', filename: 'v.mp4', load } })).toBe('🎥 Video');
    expect(lastMessageText({ ...base, body: 'olha', media: { mediaType: 'image', mimetype: 'image/jpeg', filename: 'a.jpeg', load } })).toBe('olha');
  });
});
