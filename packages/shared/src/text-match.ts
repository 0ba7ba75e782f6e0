/**
 * Search words in a text, as the ticket search matches them: each word of the search is the
 * start of a word of the text, accents and case ignored ('joão sil' finds 'João Silva'). The
 * server cuts a message around its first match for a search result; the web app marks the matches.
 */
import { foldText } from './domain.js';

/** The words of a search, folded: letters and digits only. */
export function searchWords(term: string): string[] {
  return foldText(term).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The text folded character by character, with where each folded character came from. */
function foldWithOrigins(text: string): { folded: string; origin: number[] } {
  let folded = '';
  const origin: number[] = [];
  let index = 0;
  for (const char of text) {
    const piece = foldText(char);
    for (let i = 0; i < piece.length; i++) origin.push(index);
    folded += piece;
    index += char.length;
  }
  origin.push(text.length);
  return { folded, origin };
}

/** The [start, end) ranges of `text` where a search word starts a word, in order, not overlapping. */
export function matchRanges(text: string, words: string[]): [number, number][] {
  if (words.length === 0) return [];
  const { folded, origin } = foldWithOrigins(text);
  const ranges: [number, number][] = [];
  for (const word of words) {
    let from = 0;
    for (let at = folded.indexOf(word, from); at >= 0; at = folded.indexOf(word, from)) {
      from = at + word.length;
      // The start of a word: nothing, or no letter or digit, before it.
      if (at > 0 && /[\p{L}\p{N}]/u.test(folded[at - 1] ?? '')) continue;
      ranges.push([origin[at] ?? 0, origin[at + word.length] ?? text.length]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] < last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/**
 * The part of a text around its first match, on one line: about `before` characters before it
 * and `after` after, cut at spaces, with '…' where the text was cut. The whole line when there
 * is no match.
 */
export function snippetAround(text: string, words: string[], before = 20, after = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const first = matchRanges(line, words)[0];
  if (!first) return line.length > before + after ? `${line.slice(0, before + after).trimEnd()}…` : line;
  let start = Math.max(0, first[0] - before);
  if (start > 0) {
    const space = line.indexOf(' ', start);
    start = space >= 0 && space < first[0] ? space + 1 : start;
  }
  let end = Math.min(line.length, first[1] + after);
  if (end < line.length) {
    const space = line.lastIndexOf(' ', end);
    end = space > first[1] ? space : end;
  }
  return `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Whether every search word starts a word of a text already folded (a message's `searchText`):
 * the full-text indexes' prefix match, for one text at a time.
 */
export function hasWords(folded: string, words: string[]): boolean {
  for (const word of words) {
    let found = false;
    for (let at = folded.indexOf(word); at >= 0; at = folded.indexOf(word, at + 1)) {
      if (at === 0 || !LETTER_OR_DIGIT.test(folded[at - 1] ?? '')) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}
