import { expect, it } from 'vitest';
import { withoutRecord, withRecord, type RecordsPage } from './data-api';

const page: RecordsPage = {
  records: [
    { id: 'a', title: 'old' },
    { id: 'b', title: 'other' },
  ],
  more: false,
};

it('withRecord replaces the saved record in its row and leaves the other rows alone', () => {
  const next = withRecord({ id: 'a', title: 'new', completed: true })(page);
  expect(next).toEqual({
    records: [
      { id: 'a', title: 'new', completed: true },
      { id: 'b', title: 'other' },
    ],
    more: false,
  });
  expect(page.records[0]).toEqual({ id: 'a', title: 'old' });
});

it('withRecord leaves a page without the record, or no page, as it was', () => {
  expect(withRecord({ id: 'z', title: 'elsewhere' })(page)).toEqual(page);
  expect(withRecord({ id: 'a' })(undefined)).toBeUndefined();
});

it('withoutRecord takes the deleted record out of the page', () => {
  expect(withoutRecord('a')(page)?.records).toEqual([{ id: 'b', title: 'other' }]);
  expect(withoutRecord('a')(undefined)).toBeUndefined();
});
