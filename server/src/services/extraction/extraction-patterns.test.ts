import { describe, expect, it } from 'vitest';
import { coerceCell, parseDate, parseNumber } from './coerce';
import { matchColumns, normalise } from './column-match';
import { fileKind } from './file-kind';
import { jsonDepthProblem } from './json-depth';
import { pdfProblem } from './pdf-guard';
import { guessDelimiter, readCsv } from './read-table';

// Every regular expression (and scan) that sees a cell's value or a caller's text in extraction, run on
// about 1 MB of the input that makes it backtrack most. A pattern whose cost grows with the square of its
// input (the old number strip held the loop 34.6 s on 160 KB) takes minutes on these, so the test fails
// by its timeout; a linear one takes milliseconds. The HTML patterns of docx-tables.ts only see mammoth's
// output, in which a caller's text is escaped, and run in the document worker under its deadline.

const MB = 1024 * 1024;
const run = (length: number) => 'a'.repeat(length);

describe('extraction patterns cost time linear in their input', () => {
  const cases: [string, () => unknown, unknown][] = [
    // coerce.ts, numberPart + parseNumber: digits around a long run the old `[^\d.,]+$` retried at every offset.
    ['number strip (letters between digits)', () => parseNumber(`1${run(MB)}1`), null],
    ['number strip (spaces and quotes)', () => parseNumber(`1${" '".repeat(MB / 2)}x`), null],
    ['number strip (signs)', () => parseNumber('+-'.repeat(MB / 2)), null],
    ['number shape (dots and commas)', () => parseNumber(`${'1.,'.repeat(MB / 3)}x`), null],
    // coerce.ts, parseDate: an ISO date whose time part runs on, and a d/m/y lookalike.
    [
      'ISO date with a long time part',
      () => typeof parseDate(`2026-01-01T${'1:'.repeat(MB / 2)}x`),
      'string',
    ],
    ['d/m/y date lookalike', () => typeof parseDate(`${'1/'.repeat(MB / 2)}2026`), 'string'],
    // coerce.ts, lists: one cell split on ; , |.
    [
      'list split',
      () =>
        (coerceCell(';,|'.repeat(MB / 3), { type: 'array', items: { type: 'string' } }) as { ok: true }).ok,
      true,
    ],
    // column-match.ts: header cells normalised (accents, then anything not a letter or digit).
    ['header normalisation', () => normalise(`${'é-'.repeat(MB / 2)}x`).length, MB / 2 + 1],
    ['header containment', () => matchColumns([run(MB)], { aaa: {} }).get('aaa'), 0],
    // file-kind.ts: the extension of a caller's file name.
    [
      'file name extension',
      () =>
        fileKind({
          bytes: Buffer.from('x'),
          filename: `x.${'csv'.repeat(MB / 3)}`,
          contentType: '',
          source: 'stored',
        }),
      'unsupported',
    ],
    // read-table.ts: the delimiter guess reads the first 10,000 characters; the CSV reader stops at its caps.
    ['delimiter guess', () => guessDelimiter(';'.repeat(MB)), ';'],
    ['CSV of one long quoted field', () => readCsv(Buffer.from(`"${run(MB)}`), 10).ok, false],
    // json-depth.ts: one pass, strings skipped.
    ['JSON depth scan', () => jsonDepthProblem(`["${'\\"['.repeat(MB / 3)}"]`, 64), null],
    // pdf-guard.ts: stream headers without their ends (each used to search the rest of the file).
    [
      'PDF stream search',
      () =>
        pdfProblem(
          Buffer.from(`%PDF-1.4\n${'1 0 obj << /Filter /FlateDecode >> stream\n'.repeat(MB / 44)}`),
          MB,
        ),
      null,
    ],
  ];
  it.each(cases)('%s', (_name, probe, expected) => {
    expect(probe()).toBe(expected);
  });
});
