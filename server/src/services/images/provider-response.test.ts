import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../lib/errors';
import { parseProviderResponse } from './provider-response';

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('parseProviderResponse', () => {
  it('decodes b64_json and sniffs the type', () => {
    const result = parseProviderResponse({ data: [{ b64_json: png.toString('base64') }] });
    expect(result).toEqual({ kind: 'bytes', image: { contentType: 'image/png', bytes: png } });
  });

  it('returns a url answer', () => {
    expect(parseProviderResponse({ data: [{ url: 'https://cdn.example/x.png' }] })).toEqual({
      kind: 'url',
      url: 'https://cdn.example/x.png',
    });
  });

  it.each([
    [null],
    [{}],
    [{ data: [] }],
    [{ data: [{}] }],
    [{ data: [{ b64_json: '!!!' }] }],
    [{ data: [{ b64_json: Buffer.from('<svg/>').toString('base64') }] }],
    [{ data: [{ url: 'file:///etc/passwd' }] }],
  ])('rejects %j with an UpstreamError', (body) => {
    expect(() => parseProviderResponse(body)).toThrow(UpstreamError);
  });
});
