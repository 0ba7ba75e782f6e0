import { describe, expect, it } from 'vitest';
import { matchRanges, searchWords, snippetAround } from './text-match.js';

describe('search words in a text', () => {
  it('matches the start of words, accents and case ignored', () => {
    const text = 'Olá, quero saber do PEDIDO número 123 e do pedágio';
    expect(matchRanges(text, searchWords('pedido numero')).map(([a, b]) => text.slice(a, b))).toEqual(['PEDIDO', 'número']);
    expect(matchRanges(text, searchWords('ped')).map(([a, b]) => text.slice(a, b))).toEqual(['PED', 'ped']);
    expect(matchRanges('expedido', searchWords('pedido'))).toEqual([]);
  });

  it('cuts a long message around its first match, on one line', () => {
    const text = `${'Bom dia, tudo bem? '.repeat(6)}Preciso da segunda via do boleto\nde outubro, ${'por favor, obrigado. '.repeat(6)}`;
    const snippet = snippetAround(text, searchWords('boleto'));
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('segunda via do boleto de outubro');
    expect(snippet.length).toBeLessThan(110);
  });

  it('keeps a short message whole', () => {
    expect(snippetAround('Quero o boleto', searchWords('boleto'))).toBe('Quero o boleto');
  });
});
