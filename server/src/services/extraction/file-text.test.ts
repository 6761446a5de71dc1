import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import type { FileBytes } from '../files/file-reader';
import { fileKind } from './file-kind';
import { documentText } from './file-text';

const fileOf = (bytes: Buffer, filename: string, contentType = 'application/octet-stream'): FileBytes => ({
  bytes,
  filename,
  contentType,
  source: 'stored',
});

describe('fileKind', () => {
  it('trusts magic bytes first, then the type, then the extension', () => {
    expect(fileKind(fileOf(Buffer.from('%PDF-1.4 ...'), 'x.csv', 'text/csv'))).toBe('pdf');
    expect(fileKind(fileOf(Buffer.from('a,b\n1,2'), 'data.bin', 'text/csv'))).toBe('csv');
    expect(fileKind(fileOf(Buffer.from('a\tb'), 'data.tsv'))).toBe('csv');
    expect(fileKind(fileOf(Buffer.from('[]'), 'x', 'application/json; charset=utf-8'))).toBe('json');
    expect(fileKind(fileOf(Buffer.from('hello'), 'notes.md', 'application/octet-stream'))).toBe('text');
    expect(fileKind(fileOf(Buffer.from('89504e47', 'hex'), 'photo.png', 'image/png'))).toBe('unsupported');
    expect(
      fileKind(fileOf(Buffer.from('PK\u0003\u0004rest', 'latin1'), 'archive.zip', 'application/zip')),
    ).toBe('unsupported');
  });
});

describe('documentText', () => {
  it('gives each sheet of a workbook as CSV, and CSV or text as it is', async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ['a', 'b'],
        [1, 2],
      ]),
      'One',
    );
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['c'], [3]]), 'Two');
    const xlsx = fileOf(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer, 'book.xlsx');
    expect(await documentText(xlsx)).toBe('# One\na,b\n1,2\n\n# Two\nc\n3');
    expect(await documentText(fileOf(Buffer.from('\uFEFFa,b\n1,2\n'), 'x.csv', 'text/csv'))).toBe('a,b\n1,2');
  });

  it('is null for types it does not read', async () => {
    expect(await documentText(fileOf(Buffer.from('89504e47', 'hex'), 'photo.png', 'image/png'))).toBeNull();
  });
});
