// `files prune` on a whole platform: only files no record mentions go, a deleted record deletes no file,
// and young files are kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, TEST_APP_ID, type TestPlatform } from '../../test-support/build-test-platform';
import { createFilesStore } from '../../store/files-store';
import { pruneFiles } from './file-prune';
import { openFileStorage } from './open-file-storage';

const BOUNDARY = '----queen-prune-test';
const upload = (platform: TestPlatform, name: string) =>
  platform.app.inject({
    method: 'POST',
    url: `/api/apps/${TEST_APP_ID}/integration-endpoints/Core/UploadFile`,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n${name}\r\n--${BOUNDARY}--\r\n`,
  });

describe('files prune', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    // The uploads here are anonymous: visitors' uploads are opt-in.
    platform = await buildTestPlatform({ FILE_ANONYMOUS_UPLOADS: 'on' });
  });
  afterAll(() => platform.dispose());

  it('lists, then removes, only files no record references; deleting a record keeps its file', async () => {
    const kept = (await upload(platform, 'kept.txt')).json<{ file_url: string }>().file_url;
    const loose = (await upload(platform, 'loose.txt')).json<{ file_url: string }>().file_url;
    const todo = await platform.app.inject({
      method: 'POST',
      url: `/api/apps/${TEST_APP_ID}/entities/Todo`,
      payload: { title: `see ${kept}` },
    });
    expect(todo.statusCode).toBe(201);
    const { db } = platform.database;
    const run = async (dryRun: boolean, minAgeSeconds = 0) =>
      pruneFiles({
        files: createFilesStore(db),
        storage: await openFileStorage(platform.config, db),
        dryRun,
        minAgeSeconds,
      });
    const served = async (url: string) =>
      (await platform.app.inject({ method: 'GET', url: new URL(url, 'http://x').pathname })).statusCode;

    expect((await run(true, 3600)).unreferenced).toEqual([]);
    const dry = await run(true);
    expect(dry.unreferenced.map((file) => file.filename)).toEqual(['loose.txt']);
    expect(dry.bytes).toBe('loose.txt'.length);
    expect(await served(loose)).toBe(200);

    const real = await run(false);
    expect(real.unreferenced.map((file) => file.filename)).toEqual(['loose.txt']);
    expect(real.orphanKeys).toEqual([]);
    expect(await served(loose)).toBe(404);
    expect(await served(kept)).toBe(200);

    const id = todo.json<{ id: string }>().id;
    const removed = await platform.app.inject({
      method: 'DELETE',
      url: `/api/apps/${TEST_APP_ID}/entities/Todo/${id}`,
    });
    expect(removed.statusCode).toBeLessThan(300);
    expect(await served(kept)).toBe(200);
  });
});
