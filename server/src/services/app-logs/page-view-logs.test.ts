// What a page view keeps of its Referer: origin and path only (a query or fragment may hold a token).
import { describe, expect, it } from 'vitest';
import { storedReferrer } from './page-view-logs';

describe('storedReferrer', () => {
  it.each([
    ['https://a.example/p/q?access_token=t#f', 'https://a.example/p/q'],
    ['http://127.0.0.1:8080#top', 'http://127.0.0.1:8080'],
    ['https://a.example/' + 'p'.repeat(5000), 'https://a.example/' + 'p'.repeat(494)],
    ['javascript:alert(1)', null],
    ['not a url', null],
    [undefined, null],
  ])('%s → %s', (header, stored) => {
    expect(storedReferrer(header)).toBe(stored);
  });
});
