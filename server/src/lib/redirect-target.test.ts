import { describe, expect, it } from 'vitest';
import { safeRedirectTarget } from './redirect-target';

const origins = ['http://127.0.0.1:8080', 'https://app.example'];

describe('safeRedirectTarget', () => {
  it.each([
    ['/bye', '/bye'],
    ['/a/b?c=1#d', '/a/b?c=1#d'],
    ['http://127.0.0.1:8080/after', 'http://127.0.0.1:8080/after'],
    ['https://app.example/x', 'https://app.example/x'],
  ])('keeps %s', (input, expected) => {
    expect(safeRedirectTarget(input, origins)).toBe(expected);
  });

  it.each([
    undefined,
    '',
    '//evil.example/x',
    '/\\evil.example',
    '/\t/evil.example',
    'https://evil.example/',
    'https://app.example.evil.example/',
    'javascript:alert(1)',
    'relative/path',
    'http://127.0.0.1:9999/',
  ])('sends %s to /', (input) => {
    expect(safeRedirectTarget(input, origins)).toBe('/');
  });
});

describe('safeRedirectTarget in a Location header', () => {
  it.each([
    ['/café?q=ü', '/caf%C3%A9?q=%C3%BC'],
    ['/a b', '/a%20b'],
    ['/%C3%A9', '/%C3%A9'],
    ['/日本', '/%E6%97%A5%E6%9C%AC'],
    ['/x\ud800', '/'],
  ])('percent-encodes %s', (input, expected) => {
    const target = safeRedirectTarget(input, origins);
    expect(target).toBe(expected);
    expect(target).toMatch(/^[\x21-\x7e]+$/);
  });
});
