// Which email a GitHub sign-in carries, and whether it counts as verified.
import { describe, expect, it } from 'vitest';
import { githubEmail } from './oauth2-providers';

describe('githubEmail', () => {
  const other = { email: 'other@example.com', primary: false, verified: true };

  it('takes the primary entry, verified when GitHub says so', () => {
    const primary = { email: 'me@example.com', primary: true, verified: true };
    expect(githubEmail([other, primary], 'public@example.com')).toEqual({
      email: 'me@example.com',
      emailVerified: true,
    });
  });

  it('keeps an unverified primary unverified, never swapping in another verified address', () => {
    const primary = { email: 'me@example.com', primary: true, verified: false };
    expect(githubEmail([other, primary], null)).toEqual({ email: 'me@example.com', emailVerified: false });
  });

  it('falls back to the public profile email only as unverified', () => {
    expect(githubEmail(null, 'public@example.com')).toEqual({
      email: 'public@example.com',
      emailVerified: false,
    });
    expect(githubEmail([other], 'public@example.com')).toEqual({
      email: 'public@example.com',
      emailVerified: false,
    });
    expect(githubEmail([], null)).toEqual({ email: undefined, emailVerified: false });
  });
});
