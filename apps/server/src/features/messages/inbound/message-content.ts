/** What an inbound message is stored as: its body, its kind and its line in the ticket list. */
import { MEDIA_LINES } from '@zapdesk/shared/messaging';
import type { MediaType } from '@zapdesk/shared/domain';
import type { InboundMessage } from '../../../channels/channel.js';
import { documentLine, mediaLine } from '../message-file.js';

/** The spec's location body: image|link|description. */
export function locationBody(location: { latitude: number; longitude: number; description?: string | undefined }): string {
  const at = `${location.latitude},${location.longitude}`;
  const image = `https://maps.googleapis.com/maps/api/staticmap?center=${at}&zoom=15&size=300x200&markers=${at}`;
  const link = `https://maps.google.com/maps?q=${at}&z=17`;
  return [image, link, location.description ?? ''].join('|');
}

/** The stored kind of a message: location and vcard have their own, other media their type, text none. */
export function storedMediaType(message: InboundMessage): MediaType | null {
  return message.location ? 'location' : message.vcard ? 'vcard' : (message.media?.mediaType ?? null);
}

/** The stored body of a message: the location in the spec's pipe format, the vcard, or the text. */
export function storedBody(message: InboundMessage): string {
  if (message.location) return locationBody(message.location);
  if (message.vcard) return message.vcard;
  return message.body;
}

export function lastMessageText(message: InboundMessage): string {
  if (message.location) return MEDIA_LINES.location;
  if (message.vcard) return MEDIA_LINES.vcard;
  if (message.media?.mediaType === 'other') return documentLine(message.media.filename);
  if (message.body) return message.body;
  if (message.media) return mediaLine(message.media.mediaType, message.media.filename);
  return '';
}
