/**
 * Typebot's public chat API: `POST {url}/api/v1/typebots/{publicId}/startChat` and
 * `POST {url}/api/v1/sessions/{sessionId}/continueChat`. The answer is turned into what goes to
 * WhatsApp: texts (markdown made WhatsApp's *bold* and _italic_), media by URL, the question's
 * choices as a numbered list, the pauses the flow asks for, and the hand-over marker
 * `#queue:<name or id>` (a text bubble, usually `#queue:{{queue}}`, never shown to the customer).
 */
import { AppError } from '../../core/errors.js';

export const TYPEBOT_TIMEOUT_MS = 15_000;
/** A pause the flow asks for is kept, up to this long. */
export const MAX_PAUSE_MS = 30_000;

export type BotOutput = { kind: 'text'; body: string } | { kind: 'media'; mediaType: 'image' | 'video' | 'audio' | 'file'; url: string } | { kind: 'pause'; ms: number };

export type BotReply = { sessionId: string | undefined; outputs: BotOutput[]; choices: { id: string; text: string }[]; queue: string | undefined; ended: boolean };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Typebot's markdown in WhatsApp's marks: **bold** → *bold*, *italic* / _italic_ → _italic_, ~~strike~~ → ~strike~. */
export function markdownToWhatsapp(text: string): string {
  return text
    .replace(/\*\*(.+?)\*\*/g, '\u0000$1\u0000')
    .replace(/(^|[^*])\*(?!\s)(.+?)\*(?!\*)/g, '$1_$2_')
    .replace(/__(.+?)__/g, '\u0000$1\u0000')
    .replace(/~~(.+?)~~/g, '~$1~')
    .replace(/\u0000/g, '*')
    .replace(/\\([*_~`])/g, '$1');
}

/** The text of a rich-text bubble (Slate nodes), when the server sent rich text anyway. */
function richTextToString(nodes: unknown): string {
  if (!Array.isArray(nodes)) return '';
  const walk = (node: unknown): string => {
    if (!isObject(node)) return '';
    if (typeof node.text === 'string') {
      let text = node.text;
      if (node.bold && text.trim()) text = `*${text}*`;
      if (node.italic && text.trim()) text = `_${text}_`;
      return text;
    }
    return Array.isArray(node.children) ? node.children.map(walk).join('') : '';
  };
  return nodes.map(walk).join('\n');
}

const QUEUE_MARKER = /^#(?:queue|fila|cola):\s*(.+)$/i;

export function parseReply(data: unknown): BotReply {
  const reply: BotReply = { sessionId: undefined, outputs: [], choices: [], queue: undefined, ended: false };
  if (!isObject(data)) return reply;
  reply.sessionId = str(data.sessionId);
  const waits = new Map<string, number>();
  for (const action of Array.isArray(data.clientSideActions) ? data.clientSideActions : []) {
    if (!isObject(action) || action.type !== 'wait' || !isObject(action.wait)) continue;
    const seconds = Number(action.wait.secondsToWaitFor);
    if (Number.isFinite(seconds) && seconds > 0) waits.set(str(action.lastBubbleBlockId) ?? '', Math.min(MAX_PAUSE_MS, seconds * 1000));
  }
  for (const message of Array.isArray(data.messages) ? data.messages : []) {
    if (!isObject(message) || !isObject(message.content)) continue;
    const content = message.content;
    if (message.type === 'text') {
      const text = content.type === 'richText' ? richTextToString(content.richText) : markdownToWhatsapp(str(content.markdown) ?? '');
      const marker = QUEUE_MARKER.exec(text.trim());
      if (marker?.[1]) reply.queue = marker[1].trim();
      else if (text.trim()) reply.outputs.push({ kind: 'text', body: text });
    } else if (message.type === 'image' || message.type === 'video' || message.type === 'audio') {
      const url = str(content.url);
      if (url) reply.outputs.push({ kind: 'media', mediaType: message.type, url });
    } else if (message.type === 'embed' || message.type === 'file') {
      const url = str(content.url);
      if (url) reply.outputs.push({ kind: 'media', mediaType: 'file', url });
    }
    const pause = waits.get(str(message.id) ?? '\u0000');
    if (pause) reply.outputs.push({ kind: 'pause', ms: pause });
  }
  const input = isObject(data.input) ? data.input : undefined;
  if (input && (input.type === 'choice input' || input.type === 'buttons input') && Array.isArray(input.items)) {
    for (const item of input.items) {
      if (isObject(item) && typeof item.content === 'string') reply.choices.push({ id: str(item.id) ?? item.content, text: item.content });
    }
    if (reply.choices.length) reply.outputs.push({ kind: 'text', body: reply.choices.map((c, i) => `*${i + 1}.* ${c.text}`).join('\n') });
  }
  // No question waiting: the flow is over.
  reply.ended = !input;
  return reply;
}

/** A customer's answer to a question with choices: its number or its text picks the choice. */
export function answerFor(text: string, choices: { id: string; text: string }[]): string {
  const trimmed = text.trim();
  const byNumber = /^\d{1,3}$/.test(trimmed) ? choices[Number(trimmed) - 1] : undefined;
  if (byNumber) return byNumber.text;
  return choices.find((c) => c.text.toLowerCase() === trimmed.toLowerCase())?.text ?? text;
}

async function post(url: string, body: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(TYPEBOT_TIMEOUT_MS) });
  } catch (error) {
    throw new AppError('ERR_TYPEBOT_FAILED', { message: `Typebot could not be reached: ${error instanceof Error ? error.message : String(error)}` });
  }
  if (!response.ok) {
    const text = (await response.text().catch(() => '')).replace(/\s+/g, ' ').slice(0, 160);
    throw new AppError('ERR_TYPEBOT_FAILED', { message: `Typebot answered ${response.status}${text ? `: ${text}` : ''}` });
  }
  return response.json().catch(() => {
    throw new AppError('ERR_TYPEBOT_FAILED', { message: 'Typebot answered something that is not JSON.' });
  });
}

const base = (url: string) => url.replace(/\/+$/, '');

export async function startChat(url: string, publicId: string, variables: Record<string, string>): Promise<BotReply> {
  return parseReply(await post(`${base(url)}/api/v1/typebots/${encodeURIComponent(publicId)}/startChat`, { prefilledVariables: variables, textBubbleContentFormat: 'markdown' }));
}

export async function continueChat(url: string, sessionId: string, text: string): Promise<BotReply> {
  return parseReply(await post(`${base(url)}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`, { message: { type: 'text', text }, textBubbleContentFormat: 'markdown' }));
}
