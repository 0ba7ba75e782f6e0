/** What a file message is stored and listed with: the file's own name and size, and a document's list line. */
import type { MediaType } from '@zapdesk/shared/domain';
import { MEDIA_LINES } from '@zapdesk/shared/messaging';
import type { OutboundContent } from '../../channels/channel.js';

/** An uploaded file already on disk (a temporary file): moved into the media store, never read into memory to be stored. */
export type StagedFile = { path: string; size: number };

/** What a send carries: content with its bytes, or a file message whose file is an upload on disk. */
export type ReplyContent =
  OutboundContent | { kind: 'media'; mediaType: MediaType; staged: StagedFile; mimetype: string; filename: string; caption?: string } | { kind: 'voice'; staged: StagedFile; mimetype: string };

/** The ticket list's line for a document: its name, as phones list it. */
export function documentLine(filename: string): string {
  return `📄 ${filename}`;
}

/** The list line of a file sent or received without a caption: a marker the web app translates, or the document's name. */
export function mediaLine(mediaType: MediaType, filename: string): string {
  if (mediaType === 'audio' || mediaType === 'image' || mediaType === 'video' || mediaType === 'location' || mediaType === 'vcard') return MEDIA_LINES[mediaType];
  return documentLine(filename);
}

/** The name and byte size a sent file is stored with; a voice note has no name of its own. */
export function sentFile(content: ReplyContent): { mediaName: string | null; mediaSize: number | null } {
  if (content.kind === 'text') return { mediaName: null, mediaSize: null };
  return { mediaName: content.kind === 'media' ? content.filename : null, mediaSize: 'staged' in content ? content.staged.size : Buffer.isBuffer(content.data) ? content.data.length : null };
}
