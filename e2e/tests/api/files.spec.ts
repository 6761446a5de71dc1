import { randomBytes } from 'node:crypto';
import { expect, test } from '../../support/test';
import { AUTH_ENV, createUser, failure, uniqueEmail, userClient } from '../../support/auth-helpers';
import { createDatabase, dropDatabase } from '../../support/postgres';
import { startS3, type RunningS3 } from '../../support/s3rver';
import { currentDatabaseMode, startServer, type RunningServer } from '../../support/server-process';

// Core.UploadFile, UploadPrivateFile and CreateFileSignedUrl through the official SDK, on each storage
// driver: disk (PGlite project), postgres (api-postgres project) and s3 (s3rver, both projects).

// A real 1×1 PNG, padded so a range has room.
const PNG = Buffer.concat([
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
  randomBytes(5000),
]);
// One JWT secret for every instance, so a URL signed by one is honoured by another.
const SHARED_ENV = {
  ...AUTH_ENV,
  JWT_SECRET: 'files-e2e-jwt-secret-0123456789abcdefghijklmnop',
  FILE_MAX_MB: '1',
};

const file = (bytes: Buffer, name: string, type: string) => new File([new Uint8Array(bytes)], name, { type });
const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

type Core = {
  UploadFile(input: { file: File }): Promise<{ file_url: string }>;
  UploadPrivateFile(input: { file: File }): Promise<{ file_uri: string }>;
  CreateFileSignedUrl(input: { file_uri: string; expires_in?: number }): Promise<{ signed_url: string }>;
};
const coreOf = (server: RunningServer, token?: string) =>
  userClient(server, token).integrations.Core as unknown as Core;

for (const driver of ['default', 's3'] as const) {
  // The default driver is disk on PGlite (api project) and postgres on PostgreSQL (api-postgres project).
  test.describe(`files on ${driver === 's3' ? 's3rver' : 'the default driver'}`, () => {
    let s3: RunningS3 | undefined;
    let server: RunningServer;
    let token: string;

    test.beforeAll(async () => {
      s3 = driver === 's3' ? await startS3() : undefined;
      server = await startServer({ env: { ...SHARED_ENV, ...s3?.env } });
      token = (await createUser(server, { email: uniqueEmail('files') })).token;
      const expected = driver === 's3' ? 's3' : currentDatabaseMode() === 'postgres' ? 'postgres' : 'disk';
      expect(server.logs()).toContain(`"fileStorage":"${expected}"`);
    });
    test.afterAll(async () => {
      expect(await server.stop()).toBe(0);
      await s3?.close();
    });

    test('a signed-in user uploads a public file, served with its sniffed type, range and ETag', async () => {
      const { file_url } = await coreOf(server, token).UploadFile({
        file: file(PNG, 'photo.bin', 'application/octet-stream'),
      });
      expect(file_url).toMatch(
        new RegExp(`^${server.url}/api/apps/queen-solana/files/public/[0-9a-f]{32}/photo\\.bin$`),
      );
      const response = await fetch(file_url);
      expect(response.status).toBe(200);
      expect((await bytesOf(response)).equals(PNG)).toBe(true);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const etag = response.headers.get('etag') ?? '';
      expect((await fetch(file_url, { headers: { 'if-none-match': etag } })).status).toBe(304);
      const part = await fetch(file_url, { headers: { range: 'bytes=100-1099' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${PNG.length}`);
      expect((await bytesOf(part)).equals(PNG.subarray(100, 1100))).toBe(true);
    });

    test('an HTML or SVG upload is a sandboxed download, never a page on our origin', async () => {
      for (const [name, type, text] of [
        ['page.html', 'text/html', '<script>document.title="owned"</script>'],
        ['logo.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
      ] as const) {
        const { file_url } = await coreOf(server, token).UploadFile({
          file: file(Buffer.from(text), name, type),
        });
        const response = await fetch(file_url);
        expect(response.headers.get('content-disposition')).toMatch(/^attachment;/);
        expect(response.headers.get('content-security-policy')).toMatch(/^sandbox;/);
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      }
    });

    test('a file over FILE_MAX_MB is refused with 413 naming the limit', async () => {
      const error = await failure(
        coreOf(server, token).UploadFile({
          file: file(randomBytes(1024 * 1024 + 1), 'big.bin', 'application/octet-stream'),
        }),
      );
      expect(error.status).toBe(413);
      expect(error.message).toBe('A file may be at most 1 MB (FILE_MAX_MB)');
    });

    test('a private file is served only through an unexpired, untampered signed URL', async () => {
      const core = coreOf(server, token);
      const { file_uri } = await core.UploadPrivateFile({ file: file(PNG, 'secret.png', 'image/png') });
      expect(file_uri).toMatch(/^private\/[0-9a-f]{32}\/secret\.png$/);
      const key = file_uri.split('/')[1];
      expect((await fetch(`${server.url}/api/apps/queen-solana/files/public/${key}/secret.png`)).status).toBe(
        404,
      );
      expect(
        (await fetch(`${server.url}/api/apps/queen-solana/files/private/${key}/secret.png`)).status,
      ).toBe(403);

      const { signed_url } = await core.CreateFileSignedUrl({ file_uri });
      const ok = await fetch(signed_url);
      expect(ok.status).toBe(200);
      expect((await bytesOf(ok)).equals(PNG)).toBe(true);
      const tampered = signed_url.replace(/signature=./, (match) =>
        match.endsWith('A') ? 'signature=B' : 'signature=A',
      );
      const refused = await fetch(tampered);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { message: string }).message).toContain('signature');

      const year = await core.CreateFileSignedUrl({ file_uri, expires_in: 31536000 });
      const expires = Number(new URL(year.signed_url).searchParams.get('expires'));
      expect(expires - Date.now() / 1000).toBeLessThanOrEqual(7 * 24 * 3600);
      expect(expires - Date.now() / 1000).toBeGreaterThan(7 * 24 * 3600 - 60);

      const short = await core.CreateFileSignedUrl({ file_uri, expires_in: 1 });
      await new Promise((resolveWait) => setTimeout(resolveWait, 2100));
      const expired = await fetch(short.signed_url);
      expect(expired.status).toBe(410);
      expect(((await expired.json()) as { message: string }).message).toContain('expired');
    });

    test('anonymous callers may not upload by default, even on a public_without_login app', async () => {
      const error = await failure(
        coreOf(server).UploadFile({ file: file(Buffer.from('hi'), 'hi.txt', 'text/plain') }),
      );
      expect(error.status).toBe(401);
      expect(error.message).toContain('FILE_ANONYMOUS_UPLOADS');
    });
  });
}

test('anonymous uploads are refused on an app that needs sign-in; signed-in ones pass', async () => {
  const server = await startServer({ env: { ...SHARED_ENV, APP_VISIBILITY: 'public_with_login' } });
  try {
    const error = await failure(
      coreOf(server).UploadFile({ file: file(Buffer.from('x'), 'x.txt', 'text/plain') }),
    );
    expect(error.status).toBe(401);
    const { token } = await createUser(server, { email: uniqueEmail('files-login') });
    const uploaded = await coreOf(server, token).UploadFile({
      file: file(Buffer.from('x'), 'x.txt', 'text/plain'),
    });
    expect(uploaded.file_url).toContain('/files/public/');
  } finally {
    expect(await server.stop()).toBe(0);
  }
});

for (const driver of ['postgres', 's3'] as const) {
  test(`a file uploaded on instance A is served by instance B (${driver})`, async () => {
    test.skip(currentDatabaseMode() !== 'postgres', 'needs the api-postgres project (DATABASE_URL)');
    test.setTimeout(90_000);
    const database = await createDatabase();
    const s3 = driver === 's3' ? await startS3() : undefined;
    try {
      const env = { ...SHARED_ENV, ...s3?.env };
      const [a, b] = await Promise.all([
        startServer({ env, databaseUrl: database.url }),
        startServer({ env, databaseUrl: database.url }),
      ]);
      try {
        const { token } = await createUser(a, { email: uniqueEmail('files-a') });
        const { file_url } = await coreOf(a, token).UploadFile({
          file: file(PNG, 'shared.png', 'image/png'),
        });
        const onB = await fetch(file_url.replace(a.url, b.url));
        expect(onB.status).toBe(200);
        expect((await bytesOf(onB)).equals(PNG)).toBe(true);
        const { file_uri } = await coreOf(a, token).UploadPrivateFile({
          file: file(PNG, 'private.png', 'image/png'),
        });
        const { signed_url } = await coreOf(a, token).CreateFileSignedUrl({ file_uri });
        const signedOnB = await fetch(signed_url.replace(a.url, b.url));
        expect(signedOnB.status).toBe(200);
      } finally {
        for (const server of [a, b]) expect(await server.stop()).toBe(0);
      }
    } finally {
      await s3?.close();
      await dropDatabase(database.name);
    }
  });
}
