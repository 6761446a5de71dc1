import { describe, expect, it } from 'vitest';
import { parseServerEnv, ServerEnvError } from './server-env';

const parse = (CORS_ORIGINS: string) => parseServerEnv({ CORS_ORIGINS }, '/repo', 'app').CORS_ORIGINS;

describe('CORS_ORIGINS', () => {
  it('is empty by default', () => {
    expect(parseServerEnv({}, '/repo', 'app').CORS_ORIGINS).toEqual([]);
    expect(parse('')).toEqual([]);
  });

  it('reads origins separated by commas or spaces, canonical and without duplicates', () => {
    expect(parse('http://localhost:4173, https://Camp.Example:443/ http://localhost:4173')).toEqual([
      'http://localhost:4173',
      'https://camp.example',
    ]);
    expect(parse('http://[::1]:5173')).toEqual(['http://[::1]:5173']);
  });

  it.each([
    '*',
    'null',
    'https://*.example.com',
    'https://app.example/path',
    'ftp://x.example',
    'app.example',
  ])('refuses %s, naming the variable', (value) => {
    expect(() => parse(value)).toThrow(ServerEnvError);
    expect(() => parse(value)).toThrow(/CORS_ORIGINS: must be http\(s\) origins/);
  });
});
