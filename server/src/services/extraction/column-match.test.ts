import { describe, expect, it } from 'vitest';
import { matchColumns, normalise } from './column-match';

describe('matchColumns', () => {
  it('normalises accents, case and punctuation', () => {
    expect(normalise('Prénom de l’Élève')).toBe('prenomdeleleve');
    expect(normalise('first_name')).toBe(normalise('First Name'));
  });

  it('matches exact names first, then titles, then containment; a column serves one field', () => {
    const matched = matchColumns(['Email', 'First Name', 'Hourly Rate (EUR)', 'Nom', 'Rate'], {
      first_name: { type: 'string' },
      rate: { type: 'number' },
      hourly_rate: { type: 'number' },
      surname: { type: 'string', title: 'Nom' },
      sku: { type: 'string' },
    });
    expect(Object.fromEntries(matched)).toEqual({ first_name: 1, rate: 4, hourly_rate: 2, surname: 3 });
  });

  it('does not match short names by containment', () => {
    expect(matchColumns(['Paid', 'Identifier'], { id: { type: 'string' } }).size).toBe(0);
  });
});
