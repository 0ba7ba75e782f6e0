import { describe, expect, it } from 'vitest';
import { parseRating } from './rating-parser.js';

describe('parseRating', () => {
  const table: [string, number | undefined, (string | null)?][] = [
    // digits, with or without a comment after them
    ['5', 5, null],
    ['1', 1, null],
    [' 3 ', 3, null],
    ['4/5', 4, null],
    ['nota 2', 2, null],
    ['5 estrelas', 5, null],
    ['5 ótimo atendimento', 5, 'ótimo atendimento'],
    ['4 - demorou um pouco', 4, 'demorou um pouco'],
    ['2, slow answer', 2, 'slow answer'],
    ['5⭐', 5, null],
    ['0', undefined],
    ['6', undefined],
    ['10', undefined],
    ['55', undefined],
    ['3.5', undefined],
    ['11999990000', undefined],
    ['5a', undefined],
    // stars
    ['⭐⭐⭐⭐', 4, null],
    ['⭐⭐⭐⭐⭐ adorei', 5, 'adorei'],
    ['⭐', 1, null],
    ['⭐⭐⭐⭐⭐⭐', undefined],
    // Portuguese words
    ['ótimo', 5, null],
    ['Ótimo!', 5, null],
    ['otimo', 5, null],
    ['excelente', 5, null],
    ['muito bom', 5, null],
    ['bom', 4, null],
    ['regular', 3, null],
    ['mais ou menos', 3, null],
    ['ruim', 2, null],
    ['péssimo', 1, null],
    ['muito ruim', 1, null],
    ['ótimo atendimento, obrigado', 5, 'ótimo atendimento, obrigado'],
    ['cinco', 5, null],
    ['três estrelas', 3, null],
    // English
    ['great', 5, null],
    ['Excellent', 5, null],
    ['very good', 5, null],
    ['good', 4, null],
    ['bad', 2, null],
    ['terrible', 1, null],
    ['five', 5, null],
    // Spanish
    ['excelente servicio', 5, 'excelente servicio'],
    ['muy bueno', 5, null],
    ['bueno', 4, null],
    ['malo', 2, null],
    ['pésimo', 1, null],
    ['cuatro', 4, null],
    // emojis
    ['👍', 4, null],
    ['👍🏽', 4, null],
    ['👍👍', 4, null],
    ['❤️', 5, null],
    ['😡', 1, null],
    ['👎 demorou demais', 2, '👎 demorou demais'],
    // not answers: greetings, questions, new requests, other words
    ['bom dia', undefined],
    ['Boa tarde, preciso de ajuda', undefined],
    ['good morning', undefined],
    ['buenas noches', undefined],
    ['bom, mas como faço para trocar o produto?', undefined],
    ['bombeiro', undefined],
    ['quero falar com um atendente', undefined],
    ['o atendimento foi ótimo', undefined],
    ['um problema no pedido', undefined],
    ['', undefined],
    ['   ', undefined],
    ['ok', undefined],
  ];
  it.each(table)('%j → %s', (text, score, comment) => {
    const parsed = parseRating(text);
    if (score === undefined) expect(parsed).toBeUndefined();
    else expect(parsed).toEqual({ score, comment: comment ?? null });
  });
});
