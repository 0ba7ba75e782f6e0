/** What a file message is stored and listed with: the file's own name and size, and a document's list line. */
import type { OutboundContent } from '../../channels/channel.js';

/** The ticket list's line for a document: its name, as phones list it. */
export function documentLine(filename: string): string {
  return `📄 ${filename}`;
}

/** The name and byte size a sent file is stored with; a voice note has no name of its own. */
export function sentFile(content: OutboundContent): { mediaName: string | null; mediaSize: number | null } {
  if (content.kind === 'text') return { mediaName: null, mediaSize: null };
  return { mediaName: content.kind === 'media' ? content.filename : null, mediaSize: content.data.length };
}
