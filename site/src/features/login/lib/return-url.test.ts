import { describe, expect, it } from 'vitest';
import { returnUrlWithToken, safeReturnTarget } from './return-url';

const ORIGIN = 'https://queen.example';

describe('safeReturnTarget', () => {
  it.each([
    ['https://queen.example/missing?x=1#top', 'https://queen.example/missing?x=1#top'],
    ['/after?x=1', 'https://queen.example/after?x=1'],
    ['after', 'https://queen.example/after'],
    ['https://queen.example', 'https://queen.example/'],
  ])('keeps the same-origin %s', (fromUrl, expected) => {
    expect(safeReturnTarget(fromUrl, ORIGIN).href).toBe(expected);
  });

  it.each([
    null,
    '',
    'https://evil.example/steal',
    'http://queen.example/',
    'https://queen.example:8443/',
    '//evil.example/x',
    '/\\evil.example/x',
    '/\t/evil.example',
    'javascript:alert(1)',
    'data:text/html,hi',
    'https://queen.example.evil.example/',
    'https://queen.example/login?from_url=%2F',
  ])('sends %s home instead', (fromUrl) => {
    expect(safeReturnTarget(fromUrl, ORIGIN).href).toBe('https://queen.example/');
  });
});

describe('returnUrlWithToken', () => {
  it('appends access_token, keeping the other parameters and the hash', () => {
    expect(returnUrlWithToken('/missing?keep=1#top', ORIGIN, 'jwt.a.b')).toBe(
      'https://queen.example/missing?keep=1&access_token=jwt.a.b#top',
    );
  });

  it('replaces an access_token already in from_url', () => {
    expect(returnUrlWithToken('/?access_token=old', ORIGIN, 'new')).toBe(
      'https://queen.example/?access_token=new',
    );
  });

  it('never carries the token to another origin', () => {
    expect(returnUrlWithToken('https://evil.example/', ORIGIN, 't')).toBe(
      'https://queen.example/?access_token=t',
    );
  });
});

describe('returning to an origin the server lists (CORS_ORIGINS)', () => {
  const listed = ['http://localhost:4173', 'https://camp.example'];

  it('returns to a listed origin with the token', () => {
    expect(returnUrlWithToken('http://localhost:4173/trips?x=1', ORIGIN, 't', listed)).toBe(
      'http://localhost:4173/trips?x=1&access_token=t',
    );
    expect(safeReturnTarget('https://camp.example/login', ORIGIN, listed).href).toBe(
      'https://camp.example/login',
    );
  });

  it.each([
    'http://localhost:4174/',
    'https://camp.example.evil.test/',
    'http://camp.example/',
    'javascript:alert(1)',
  ])('still never carries the token to the unlisted %s', (fromUrl) => {
    expect(returnUrlWithToken(fromUrl, ORIGIN, 't', listed)).toBe('https://queen.example/?access_token=t');
  });
});
