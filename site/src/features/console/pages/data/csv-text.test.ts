import { describe, expect, it } from 'vitest';
import { csvOf, csvWithoutRows, neutraliseCell, parseCsv, quoteCell } from './csv-text';
import { exportCsvOf, exportFileName } from './record-export';

describe('neutraliseCell', () => {
  it('prefixes a cell a spreadsheet would run as a formula with a quote', () => {
    for (const cell of ['=cmd|/c calc', '+1', '-2', '@SUM(A1)', '\tx', '\rx']) {
      expect(neutraliseCell(cell)).toBe(`'${cell}`);
    }
  });
  it('leaves other cells alone, formula characters later in the cell included', () => {
    for (const cell of ['', 'plain', 'a=b', ' =x', "'quoted", '1-2']) expect(neutraliseCell(cell)).toBe(cell);
  });
});

describe('quoteCell and csvOf', () => {
  it('quotes what RFC 4180 requires, doubling quotes, and nothing else', () => {
    expect(quoteCell('plain')).toBe('plain');
    expect(quoteCell('a,b')).toBe('"a,b"');
    expect(quoteCell('say "hi"')).toBe('"say ""hi"""');
    expect(quoteCell('two\nlines')).toBe('"two\nlines"');
    expect(quoteCell('cr\r')).toBe('"cr\r"');
  });
  it('writes CRLF rows, neutralising only when asked, a neutralised cell still quoted', () => {
    const rows = [
      ['a', 'b'],
      ['=1+1', '-x,y'],
    ];
    expect(csvOf(rows, { neutralise: true })).toBe('a,b\r\n\'=1+1,"\'-x,y"\r\n');
    expect(csvOf(rows, { neutralise: false })).toBe('a,b\r\n=1+1,"-x,y"\r\n');
  });
  it('exports a BOM, the columns, JSON for non-strings and an empty cell for null', () => {
    const text = exportCsvOf(
      ['id', 'title', 'tags', 'n', 'gone'],
      [{ id: 'r1', title: '=cmd', tags: ['a', 'b'], n: 3, gone: null }],
    );
    expect(text).toBe('\uFEFFid,title,tags,n,gone\r\nr1,\'=cmd,"[""a"",""b""]",3,\r\n');
    expect(exportFileName('Todo', new Date('2026-11-28T23:59:00Z'))).toBe('Todo-2026-11-28.csv');
  });
});

describe('parseCsv', () => {
  it('reads what csvOf writes back, BOM dropped and empty lines skipped', () => {
    const rows = [
      ['h1', 'h2'],
      ['a,b', 'say "hi"'],
      ['two\nlines', ''],
    ];
    expect(parseCsv(`\uFEFF${csvOf(rows, { neutralise: false })}\r\n`)).toEqual(rows);
    expect(parseCsv('a,b\n\n1,2\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
  it('drops the data rows a report names (1 = the first after the header)', () => {
    expect(csvWithoutRows('title,n\nok,1\nbad,x\n"also, ok",3\n', new Set([2]))).toBe(
      'title,n\r\nok,1\r\n"also, ok",3\r\n',
    );
  });
});
