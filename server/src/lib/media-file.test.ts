import { describe, expect, it } from 'vitest';
import { imageKey, mediaFileName, parseMediaFileName, sniffImageType } from './media-file';

const key = imageKey('builtin', 'a queen');

describe('media file names', () => {
  it('round-trips key and type', () => {
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const file = mediaFileName(key, 'image/png');
    expect(file).toBe(`${key}.png`);
    expect(parseMediaFileName(file)).toEqual({ key, contentType: 'image/png' });
  });

  it.each([
    `${key}.exe`,
    `${key.toUpperCase()}.png`,
    `${key.slice(1)}.png`,
    `../${key}.png`,
    `${key}.png.br`,
    `${key}.jpeg`,
    '',
  ])('rejects %s', (file) => expect(parseMediaFileName(file)).toBeNull());
});

describe('sniffImageType', () => {
  it('recognises png, jpeg and webp', () => {
    expect(sniffImageType(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('image/png');
    expect(sniffImageType(Buffer.from('ffd8ffe000', 'hex'))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('RIFF0000WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('<svg'))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });
});
