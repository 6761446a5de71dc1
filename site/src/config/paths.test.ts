import { describe, expect, it } from 'vitest';
import { PATH_LABEL_CASES } from '../testing/path-label-cases';
import { matchRoute, requestedPageName } from './paths';

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

describe('requestedPageName', () => {
  it('drops leading slashes and decodes percent escapes', () => {
    expect(requestedPageName('/royal/treasury')).toBe('royal/treasury');
    expect(requestedPageName('//x')).toBe('x');
    expect(requestedPageName('/royal%20treasury')).toBe('royal treasury');
    expect(requestedPageName('/%3Cimg%3E')).toBe('<img>');
    expect(requestedPageName('/bad%E0%A4%A')).toBe('bad%E0%A4%A');
  });

  // The server names the page from the request URL (server/src/lib/site-page.test.ts reads the same table).
  it.each(PATH_LABEL_CASES)('names $pathname as the server names $url: "$label"', ({ pathname, label }) => {
    expect(requestedPageName(pathname)).toBe(label);
  });
});
