import { describe, expect, it } from 'vitest';
import { CSV_CHUNK_CHARS, parseImportFile } from './entity-import';
import type { EntityDef } from '../../project/project-loader';

const note: EntityDef = {
  name: 'Note',
  required: [],
  properties: { title: { type: 'string' }, body: { type: 'string' } },
  rls: {},
};
const csv = (text: string) => ({ filename: 'a.csv', contentType: 'text/csv', content: Buffer.from(text) });

describe('parseImportFile (CSV)', () => {
  it('keeps a character whose surrogate pair straddles a parsing chunk', async () => {
    // The header and padding put the emoji's two UTF-16 units on both sides of the first chunk's end.
    const header = 'title,body\n';
    const padding = 'x'.repeat(CSV_CHUNK_CHARS - header.length - 'a,'.length - 1);
    const { records } = await parseImportFile(note, csv(`${header}a,${padding}😀y\n`));
    expect(records[0]?.body).toBe(`${padding}😀y`);
  });

  it('reads a file of many chunks whole, in order', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `t${i},${'b'.repeat(40)}`);
    const { records } = await parseImportFile(note, csv(`title,body\n${rows.join('\n')}\n`));
    expect(records).toHaveLength(20_000);
    expect(records[19_999]?.title).toBe('t19999');
  });

  it('answers a malformed file with 400, not an unhandled rejection', async () => {
    const broken = `title,body\n"unclosed,${'z'.repeat(CSV_CHUNK_CHARS)}\n`;
    await expect(parseImportFile(note, csv(broken))).rejects.toThrow(/not valid CSV/);
  });
});
