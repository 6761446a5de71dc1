import { describe, expect, it } from 'vitest';
import { AUDITED_RECORD_BYTES, auditedFields } from './record-changes';

// What an audit row keeps of a record: its fields without the stamps, or only their names past the bound,
// counted in bytes (multi-byte text cannot make a row three times larger).
describe('auditedFields', () => {
  it('keeps the fields, not the stamps, and only the names asked for', () => {
    const record = { id: 'r1', created_date: 'x', title: 'a', body: 'b' };
    expect(auditedFields(record)).toEqual({ title: 'a', body: 'b' });
    expect(auditedFields(record, ['title'])).toEqual({ title: 'a' });
  });

  it('keeps names only past the bound, counted in bytes', () => {
    const ascii = { text: 'a'.repeat(AUDITED_RECORD_BYTES - 20) };
    expect(auditedFields(ascii)).toEqual(ascii);
    const wide = { text: '€'.repeat((AUDITED_RECORD_BYTES - 20) / 2) };
    expect(auditedFields(wide)).toEqual({
      fields: ['text'],
      values_omitted: `larger than ${AUDITED_RECORD_BYTES} bytes`,
    });
  });
});
