// The file routes in-process: upload (public, private), how files are served (types, ranges, caching),
// signed URLs (expiry, tampering, clamping), the size limit and who may upload.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  buildTestPlatform,
  TEST_APP_ID,
  TEST_SERVICE_TOKEN,
  type TestPlatform,
} from '../test-support/build-test-platform';

const BOUNDARY = '----queen-files-test';

/** multipart builds a multipart/form-data body with one file part (and extra text fields). */
function multipart(
  file: { name: string; type: string; bytes: Buffer; field?: string },
  fields: Record<string, string> = {},
) {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  );
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

// A real 1×1 PNG (file-type walks its chunks), padded so ranges have room.
const PNG = Buffer.concat([
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
  randomBytes(200),
]);
const SERVICE = { authorization: `Bearer ${TEST_SERVICE_TOKEN}` };
const core = (name: string, appId = TEST_APP_ID) => `/api/apps/${appId}/integration-endpoints/Core/${name}`;

describe('file routes', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await buildTestPlatform({ FILE_MAX_MB: '1', FILE_ANONYMOUS_UPLOADS: 'on' });
  });
  afterAll(() => platform.dispose());
  afterEach(() => vi.useRealTimers());

  async function upload(file: Parameters<typeof multipart>[0], name = 'UploadFile', headers = {}) {
    const body = multipart(file);
    return platform.app.inject({
      method: 'POST',
      url: core(name),
      payload: body.payload,
      headers: { ...body.headers, ...headers },
    });
  }
  const pathOf = (url: string) => new URL(url, 'http://x').pathname + new URL(url, 'http://x').search;

  it('uploads a public file and serves it inline with its sniffed type, ETag and caching', async () => {
    const response = await upload({ name: 'pixel.bin', type: 'application/octet-stream', bytes: PNG });
    expect(response.statusCode).toBe(200);
    const { file_url } = response.json<{ file_url: string }>();
    expect(file_url).toMatch(new RegExp(`/api/apps/${TEST_APP_ID}/files/public/[0-9a-f]{32}/pixel\\.bin$`));
    const served = await platform.app.inject({ method: 'GET', url: pathOf(file_url) });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-disposition']).toMatch(/^inline;/);
    expect(served.headers['content-security-policy']).toMatch(/^sandbox;/);
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['content-length']).toBe(String(PNG.length));
    const etag = String(served.headers.etag);
    const again = await platform.app.inject({
      method: 'GET',
      url: pathOf(file_url),
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers Range requests with 206, and 416 beyond the end', async () => {
    const { file_url } = (await upload({ name: 'p.png', type: 'image/png', bytes: PNG })).json<{
      file_url: string;
    }>();
    const part = await platform.app.inject({
      method: 'GET',
      url: pathOf(file_url),
      headers: { range: 'bytes=2-9' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 2-9/${PNG.length}`);
    expect(part.rawPayload.equals(PNG.subarray(2, 10))).toBe(true);
    const suffix = await platform.app.inject({
      method: 'GET',
      url: pathOf(file_url),
      headers: { range: 'bytes=-4' },
    });
    expect(suffix.rawPayload.equals(PNG.subarray(-4))).toBe(true);
    const beyond = await platform.app.inject({
      method: 'GET',
      url: pathOf(file_url),
      headers: { range: `bytes=${PNG.length}-` },
    });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${PNG.length}`);
  });

  it.each([
    ['page.html', 'text/html', '<script>alert(1)</script>', 'text/html; charset=utf-8', 'attachment'],
    [
      'logo.svg',
      'image/svg+xml',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      'image/svg+xml',
      'attachment',
    ],
    ['app.js', 'text/javascript', 'alert(1)', 'text/javascript; charset=utf-8', 'attachment'],
    ['fake.png', 'image/png', '<html><script>alert(1)</script></html>', 'image/png', 'attachment'],
    ['notes.txt', 'text/plain', 'hello', 'text/plain; charset=utf-8', 'inline'],
  ])(
    'serves %s (declared %s) as %s, %s, never able to run script',
    async (name, type, text, served, disposition) => {
      const { file_url } = (await upload({ name, type, bytes: Buffer.from(text) })).json<{
        file_url: string;
      }>();
      const response = await platform.app.inject({ method: 'GET', url: pathOf(file_url) });
      expect(response.headers['content-type']).toBe(served);
      expect(String(response.headers['content-disposition'])).toMatch(new RegExp(`^${disposition};`));
      expect(response.headers['content-security-policy']).toMatch(/^sandbox;/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it('refuses a file over FILE_MAX_MB with 413 naming the limit, whether declared or streamed', async () => {
    // Streamed: the declared length is within the multipart allowance, the file part is not.
    const streamed = await upload({
      name: 'big.bin',
      type: 'application/octet-stream',
      bytes: randomBytes(1024 * 1024 + 10),
    });
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json().message).toBe('A file may be at most 1 MB (FILE_MAX_MB)');
    const declared = await upload({
      name: 'big.bin',
      type: 'application/octet-stream',
      bytes: randomBytes(2 * 1024 * 1024),
    });
    expect(declared.statusCode).toBe(413);
    expect(declared.json().message).toContain('1 MB');
  });

  it('refuses a body that is not multipart, or has no part named file', async () => {
    const json = await platform.app.inject({
      method: 'POST',
      url: core('UploadFile'),
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toContain('multipart/form-data');
    const wrongPart = await upload({
      name: 'a.txt',
      type: 'text/plain',
      bytes: Buffer.from('a'),
      field: 'upload',
    });
    expect(wrongPart.statusCode).toBe(400);
    expect(wrongPart.json().message).toContain('"file"');
  });

  it('keeps a private file unreachable without a valid, unexpired signature', async () => {
    const uploaded = await upload({ name: 'secret.png', type: 'image/png', bytes: PNG }, 'UploadPrivateFile');
    expect(uploaded.statusCode).toBe(200);
    const { file_uri } = uploaded.json<{ file_uri: string }>();
    expect(file_uri).toMatch(/^private\/[0-9a-f]{32}\/secret\.png$/);
    const key = file_uri.split('/')[1];
    // Not by the public path, not without a signature.
    expect(
      (await platform.app.inject({ method: 'GET', url: `/api/apps/${TEST_APP_ID}/files/public/${key}/x` }))
        .statusCode,
    ).toBe(404);
    expect(
      (await platform.app.inject({ method: 'GET', url: `/api/apps/${TEST_APP_ID}/files/private/${key}/x` }))
        .statusCode,
    ).toBe(403);

    const signedResponse = await platform.app.inject({
      method: 'POST',
      url: core('CreateFileSignedUrl'),
      payload: { file_uri },
    });
    expect(signedResponse.statusCode).toBe(200);
    const signed = pathOf(signedResponse.json<{ signed_url: string }>().signed_url);
    const expires = Number(new URL(signed, 'http://x').searchParams.get('expires'));
    expect(expires - Date.now() / 1000).toBeGreaterThan(295);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(300);
    const ok = await platform.app.inject({ method: 'GET', url: signed });
    expect(ok.statusCode).toBe(200);
    expect(ok.rawPayload.equals(PNG)).toBe(true);
    expect(ok.headers['cache-control']).toMatch(/^private, max-age=\d+$/);

    const tampered = signed.replace(
      /signature=(.)/,
      (_m, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`,
    );
    expect((await platform.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
    const longer = signed.replace(/expires=\d+/, `expires=${expires + 1000}`);
    expect((await platform.app.inject({ method: 'GET', url: longer })).statusCode).toBe(403);
    // Another app's path: this server hosts one app, so the other is not found at all.
    const otherApp = signed.replace(`/apps/${TEST_APP_ID}/`, '/apps/other-app/');
    expect((await platform.app.inject({ method: 'GET', url: otherApp })).statusCode).toBe(404);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 301_000);
    const expired = await platform.app.inject({ method: 'GET', url: signed });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toContain('expired');
  });

  it('clamps a year-long expires_in to FILE_SIGNED_URL_MAX_S (7 days by default)', async () => {
    const { file_uri } = (
      await upload({ name: 's.txt', type: 'text/plain', bytes: Buffer.from('s') }, 'UploadPrivateFile')
    ).json<{ file_uri: string }>();
    const response = await platform.app.inject({
      method: 'POST',
      url: core('CreateFileSignedUrl'),
      payload: { file_uri, expires_in: 31536000 },
    });
    expect(response.statusCode).toBe(200);
    const expires = Number(
      new URL(response.json<{ signed_url: string }>().signed_url, 'http://x').searchParams.get('expires'),
    );
    expect(expires - Date.now() / 1000).toBeGreaterThan(7 * 24 * 3600 - 2);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(7 * 24 * 3600);
  });

  it('signs only private files of this app', async () => {
    const { file_url } = (await upload({ name: 'p.png', type: 'image/png', bytes: PNG })).json<{
      file_url: string;
    }>();
    const publicKey = file_url.split('/').at(-2);
    for (const file_uri of [`private/${publicKey}/p.png`, 'private/0123', '../etc/passwd']) {
      const response = await platform.app.inject({
        method: 'POST',
        url: core('CreateFileSignedUrl'),
        payload: { file_uri },
      });
      expect(response.statusCode).toBe(404);
    }
    const missing = await platform.app.inject({
      method: 'POST',
      url: core('CreateFileSignedUrl'),
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
  });

  it('lets the service role upload', async () => {
    const response = await upload({ name: 'p.png', type: 'image/png', bytes: PNG }, 'UploadFile', SERVICE);
    expect(response.statusCode).toBe(200);
  });
});

describe('who may upload', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await buildTestPlatform({
      APP_VISIBILITY: 'public_with_login',
      INTEGRATION_RATE_LIMIT_PER_MINUTE: '4',
    });
  });
  afterAll(() => platform.dispose());

  it('refuses an anonymous upload on public_with_login and private_with_login apps, and rate-limits per IP', async () => {
    const body = multipart({ name: 'a.txt', type: 'text/plain', bytes: Buffer.from('a') });
    const anonymous = await platform.app.inject({ method: 'POST', url: core('UploadFile'), ...body });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().extra_data).toEqual({ reason: 'auth_required' });
    const settings = await platform.app.inject({
      method: 'PUT',
      url: `/api/apps/${TEST_APP_ID}/admin/settings`,
      payload: { visibility: 'private_with_login' },
      headers: SERVICE,
    });
    expect(settings.statusCode).toBe(200);
    const onPrivate = await platform.app.inject({ method: 'POST', url: core('UploadFile'), ...body });
    expect(onPrivate.statusCode).toBe(401);
    const statuses: number[] = [];
    for (let call = 0; call < 3; call += 1) {
      const response = await platform.app.inject({
        method: 'POST',
        url: core('UploadFile'),
        payload: body.payload,
        headers: { ...body.headers, ...SERVICE },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});
