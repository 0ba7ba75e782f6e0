/**
 * Reads a customer's reply to the satisfaction question: a score from 1 to 5 and, when the same
 * message says more, a comment. Pure: the inbound pipeline decides what to do with the result.
 *
 * What counts as an answer (see docs/teamwork.md, "Customer satisfaction"):
 * - a digit 1–5 at the start ('5', '4/5', 'nota 3', '5 estrelas'); the text after it is the comment;
 * - 1 to 5 stars (⭐ 🌟 ★) at the start: their count; the text after them is the comment;
 * - a number word alone ('cinco', 'three', 'cuatro', with 'estrelas'/'stars'/'estrellas' or not);
 * - a word, phrase or emoji of WORDS at the start; when the message says more, the whole message
 *   is the comment. A greeting ('bom dia', 'good morning', 'buenas noches') or a question (a '?'
 *   after the word) is not an answer: the customer is starting a new conversation.
 * Anything else (another number, '10', '3.5', a long text) is not an answer.
 */

export type ParsedRating = { score: number; comment: string | null };

/** Folded (lower case, no accents) words and phrases, and emojis, with their score. */
// prettier-ignore
export const WORDS: Readonly<Record<string, number>> = {
  // 5
  otimo: 5, otima: 5, excelente: 5, excellent: 5, perfeito: 5, perfeita: 5, perfect: 5, perfecto: 5, perfecta: 5,
  maravilhoso: 5, maravilhosa: 5, 'muito bom': 5, 'muito boa': 5, 'very good': 5, 'muy bueno': 5, 'muy buena': 5,
  great: 5, amazing: 5, awesome: 5, excepcional: 5, exceptional: 5, genial: 5,
  '😍': 5, '🤩': 5, '❤': 5, '💯': 5, '👏': 5, '🥰': 5,
  // 4
  bom: 4, boa: 4, good: 4, bueno: 4, buena: 4, '👍': 4, '🙂': 4, '😊': 4, '😀': 4, '😃': 4,
  // 3
  regular: 3, razoavel: 3, 'mais ou menos': 3, 'mas o menos': 3, average: 3, 'so so': 3, 'so-so': 3, fair: 3, '😐': 3,
  // 2
  ruim: 2, fraco: 2, bad: 2, poor: 2, malo: 2, mala: 2, '👎': 2, '🙁': 2, '☹': 2, '😕': 2, '😞': 2,
  // 1
  pessimo: 1, pessima: 1, pesimo: 1, pesima: 1, malisimo: 1, horrivel: 1, terrivel: 1, 'muito ruim': 1, terrible: 1,
  awful: 1, horrible: 1, 'very bad': 1, 'muy malo': 1, 'muy mala': 1, '😡': 1, '😠': 1, '🤬': 1,
};

/** Number words, taken only as the whole message. */
// prettier-ignore
const NUMBER_WORDS: Readonly<Record<string, number>> = {
  um: 1, uma: 1, one: 1, uno: 1, una: 1,
  dois: 2, duas: 2, two: 2, dos: 2,
  tres: 3, three: 3,
  quatro: 4, four: 4, cuatro: 4,
  cinco: 5, five: 5,
};

/** After a word, these make it a greeting, not an answer ('bom dia', 'good morning'). */
const GREETING_NEXT = new Set(['dia', 'dias', 'tarde', 'tardes', 'noite', 'noites', 'noche', 'noches', 'morning', 'afternoon', 'evening', 'night']);

const PHRASES = Object.keys(WORDS).sort((a, b) => b.length - a.length);

/** Emoji presentation selectors and skin tones change nothing about what an emoji says. */
function clean(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\uFE0E\uFE0F\u{1F3FB}-\u{1F3FF}]/gu, '')
    .trim();
}

/** Lower case without accents, code point by code point (so positions map back to the original). */
function foldChar(c: string): string {
  return c.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The original text after the first `foldedLength` folded characters. */
function restAfter(original: string, foldedLength: number): string {
  let folded = 0;
  let index = 0;
  for (const c of original) {
    if (folded >= foldedLength) break;
    folded += foldChar(c).length;
    index += c.length;
  }
  return original.slice(index);
}

/** The comment a rest of text makes, without the separators that follow a score. */
function commentOf(rest: string): string | null {
  const text = rest.replace(/^[\s\-–—,.:;!)]+/u, '').trim();
  return text === '' ? null : text;
}

const DIGIT = /^(?:nota\s*:?\s*)?([1-5])(?:\s*\/\s*5|\s+(?:de|of)\s+5)?(?:\s*(?:estrelas?|stars?|estrellas?)\b)?(?:\s*[⭐🌟★]+)?(?=$|[\s\p{P}\p{S}])/iu;
const STARS = /^[⭐🌟★]+/u;
const NUMBER_WORD = /^(\p{L}+)(?:\s+(?:estrelas?|stars?|estrellas?))?[\s.!]*$/u;

export function parseRating(raw: string): ParsedRating | undefined {
  const text = clean(raw);
  if (text === '') return undefined;

  const digit = DIGIT.exec(text);
  if (digit) {
    const rest = text.slice(digit[0].length);
    // '3.5', '4,5': not a score of ours.
    if (/^[.,]\d/.test(rest)) return undefined;
    return { score: Number(digit[1]), comment: commentOf(rest) };
  }
  if (/^\d/.test(text)) return undefined;

  const stars = STARS.exec(text);
  if (stars) {
    const count = [...stars[0]].length;
    return count <= 5 ? { score: count, comment: commentOf(text.slice(stars[0].length)) } : undefined;
  }

  const folded = [...text].map(foldChar).join('');
  const word = NUMBER_WORD.exec(folded);
  const numberScore = word?.[1] === undefined ? undefined : NUMBER_WORDS[word[1]];
  if (numberScore !== undefined) return { score: numberScore, comment: null };

  return wordRating(text, folded);
}

function wordRating(text: string, folded: string): ParsedRating | undefined {
  for (const phrase of PHRASES) {
    if (!folded.startsWith(phrase)) continue;
    const isWord = /^\p{L}/u.test(phrase);
    let after = folded.slice(phrase.length);
    // A word must end there ('bom', not 'bombeiro'); an emoji may repeat ('👍👍').
    if (isWord && /^[\p{L}\p{N}]/u.test(after)) continue;
    if (!isWord) while (after.startsWith(phrase)) after = after.slice(phrase.length);
    const nextWord = /^[\s,!.]*(\p{L}+)/u.exec(after)?.[1];
    if (nextWord && GREETING_NEXT.has(nextWord)) return undefined;
    if (after.includes('?')) return undefined;
    const score = WORDS[phrase];
    if (score === undefined) return undefined;
    const says = commentOf(restAfter(text, folded.length - after.length)) !== null;
    return { score, comment: says ? text : null };
  }
  return undefined;
}
