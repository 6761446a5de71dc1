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

  it('refuses an entry that inflates past the size its directory declares (a lying zip bomb)', () => {
    const bytes = Buffer.from(workbook(2000));
    const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    let offset = bytes.readUInt32LE(end + 16);
    let largest = offset;
    for (let index = 0; index < bytes.readUInt16LE(end + 10); index++) {
      if (bytes.readUInt32LE(offset + 24) > bytes.readUInt32LE(largest + 24)) largest = offset;
      offset +=
        46 +
        bytes.readUInt16LE(offset + 28) +
        bytes.readUInt16LE(offset + 30) +
        bytes.readUInt16LE(offset + 32);
    }
    bytes.writeUInt32LE(10, largest + 24);
    expect(zipProblem(bytes, { maxEntries: 100, maxUncompressedBytes: 10 * 1024 * 1024 })).toMatch(
      /unpacks to more than its zip directory declares/,
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
