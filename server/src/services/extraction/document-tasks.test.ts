import { describe, expect, it } from 'vitest';
import { MAX_ANSWER_CHARS, performDocumentTask } from './document-tasks';
import { DEFAULT_ZIP_LIMITS } from './zip-guard';

const limits = { maxRows: 50_000, maxPages: 10, zip: DEFAULT_ZIP_LIMITS };
const csv = (text: string) => ({
  bytes: new Uint8Array(Buffer.from(text)),
  contentType: 'text/csv',
  filename: 't.csv',
});

describe('performDocumentTask', () => {
  it('refuses rows that would answer more than MAX_ANSWER_CHARS (a long property name in every row)', async () => {
    const name = `h${'z'.repeat(20_000)}`;
    const rows = Array.from({ length: 1000 }, () => 'a').join('\n');
    const answer = await performDocumentTask({
      task: 'rows',
      file: csv(`${name}\n${rows}\n`),
      row: { properties: { [name]: { type: 'string' } }, required: [] },
      limits,
    });
    expect(answer).toMatchObject({ kind: 'refused', details: expect.stringContaining('larger than') });
  });

  it('refuses a text longer than MAX_ANSWER_CHARS, and keeps a normal one', async () => {
    const long = csv('x'.repeat(MAX_ANSWER_CHARS + 1));
    await expect(performDocumentTask({ task: 'text', file: long, limits })).rejects.toThrow('larger than');
    expect(await performDocumentTask({ task: 'text', file: csv('a,b\n1,2'), limits })).toEqual({
      kind: 'text',
      text: 'a,b\n1,2',
    });
  });
});
