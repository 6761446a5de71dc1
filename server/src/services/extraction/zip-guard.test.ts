import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { zipProblem } from './zip-guard';

const workbook = (rows: number) => {
  const book = XLSX.utils.book_new();
  const grid = Array.from({ length: rows }, (_, index) => [`row ${index}`, index, 'x'.repeat(50)]);
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(grid), 'S');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
};

describe('zipProblem', () => {
  it('passes an ordinary workbook and refuses one that unpacks past the limit', () => {
    const bytes = workbook(2000);
    expect(zipProblem(bytes, { maxEntries: 100, maxUncompressedBytes: 10 * 1024 * 1024 })).toBeNull();
    expect(zipProblem(bytes, { maxEntries: 100, maxUncompressedBytes: 64 * 1024 })).toMatch(
      /unpacks to more than/,
    );
    expect(zipProblem(bytes, { maxEntries: 2, maxUncompressedBytes: 10 * 1024 * 1024 })).toMatch(
      /more than 2 parts/,
    );
  });

  it('refuses bytes that are not a zip', () => {
    expect(
      zipProblem(Buffer.from('PK\u0003\u0004 not really', 'latin1'), {
        maxEntries: 10,
        maxUncompressedBytes: 1,
      }),
    ).toMatch(/not a readable Office document/);
  });
});
