import { describe, expect, it } from 'vitest';
import { csvCell, csvCellValue, csvFile, csvRows } from './csv.js';

describe('CSV cells', () => {
  it.each(['=HYPERLINK("http://x","clique")', '+5511999', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd'])('defuses %j against formula injection', (value) => {
    const cell = csvCell(value);
    expect(cell.startsWith(`"'`)).toBe(true);
    expect(csvCellValue(cell.slice(1, -1).replace(/""/g, '"'))).toBe(value);
  });

  it('keeps ordinary text, numbers and accents as they are, quoted', () => {
    expect(csvCell('João "Jota" Silva')).toBe('"João ""Jota"" Silva"');
    expect(csvCell('5511999990000')).toBe('"5511999990000"');
    expect(csvCell(42)).toBe('"42"');
    expect(csvCell(null)).toBe('""');
  });

  it('writes a file with a byte-order mark and CRLF lines', () => {
    expect(
      csvFile([
        ['nome', 'número'],
        ['Ana', '=1+1'],
      ]),
    ).toBe('\uFEFF"nome";"número"\r\n"Ana";"\'=1+1"\r\n');
  });

  it('reads back the rows it wrote: quotes, separators and line breaks inside cells', () => {
    const rows = [
      ['nome', 'texto'],
      ['João "Jota"', 'a;b\r\nc'],
      ['', "'=1+1"],
    ];
    expect(csvRows(csvFile(rows))).toEqual(rows);
    expect(csvRows('a;b\nc;d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });
});
