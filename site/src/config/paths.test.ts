import { describe, expect, it } from 'vitest';
import { matchRoute } from './paths';

describe('matchRoute', () => {
  it.each(['/', '/Home', '/home', '/HOME/', '/home/', '/hOmE'])('%s is home', (pathname) => {
    expect(matchRoute(pathname)).toBe('home');
  });

  it.each(['/homes', '/x', '/home/x', '', '//', '/home//', '/Home/index', '/myhome', 'home'])(
    '%s is not-found',
    (pathname) => {
      expect(matchRoute(pathname)).toBe('not-found');
    },
  );
});
