// App secrets on a real embedded database: sealed in the table, names listed, changes told, a wrong key
// refused with a clear error, names checked.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError, NotConfiguredError, NotFoundError } from '../../lib/errors';
import { createAppsStore } from '../../store/apps-store';
import type { Database } from '../../store/database';
import { createSecretsStore } from '../../store/secrets-store';
import { secretNameProblem } from './secret-names';
import { createSecretsService, MAX_SECRET_BYTES, type SecretsChange } from './secrets-service';
import { openTestDatabase, type TestDatabase } from '../../test-support/open-test-database';

const APP = 'secrets-app';
const key = randomBytes(32);
let opened: TestDatabase | undefined;
let db: Database;

const service = (withKey = key) =>
  createSecretsService({ store: createSecretsStore(db), key: withKey, keySource: 'SECRETS_KEY' });

beforeAll(async () => {
  opened = await openTestDatabase({ engine: 'pglite' });
  db = opened.db;
  await createAppsStore(db).ensure(APP);
});

afterAll(async () => {
  await opened?.close();
});

describe('secrets service', () => {
  it('stores values sealed, lists names only, and gives values to secretsFor and get', async () => {
    const secrets = service();
    await secrets.set(APP, 'RESEND_API_KEY', 're_123');
    await secrets.set(APP, 'ZAPIER_WEBHOOK_URL', 'https://hooks.example/1');
    const { rows } = await db.query<{ sealed: string }>('SELECT sealed FROM app_secrets WHERE app_id = $1', [
      APP,
    ]);
    expect(rows.map((row) => row.sealed).join(' ')).not.toMatch(/re_123|hooks\.example/);
    expect(await secrets.names(APP)).toEqual(['RESEND_API_KEY', 'ZAPIER_WEBHOOK_URL']);
    expect(await secrets.secretsFor(APP)).toEqual({
      RESEND_API_KEY: 're_123',
      ZAPIER_WEBHOOK_URL: 'https://hooks.example/1',
    });
    expect(await secrets.get(APP, 'RESEND_API_KEY')).toBe('re_123');
    expect(await secrets.get(APP, 'MISSING')).toBeUndefined();
  });

  it('replaces a value, deletes one, and tells subscribers (never the value)', async () => {
    const secrets = service();
    const changes: SecretsChange[] = [];
    const unsubscribe = secrets.subscribe((change) => changes.push(change));
    await secrets.set(APP, 'TOKEN_A', 'one');
    await secrets.set(APP, 'TOKEN_A', 'two');
    expect(await secrets.get(APP, 'TOKEN_A')).toBe('two');
    await secrets.delete(APP, 'TOKEN_A');
    await expect(secrets.delete(APP, 'TOKEN_A')).rejects.toThrow(NotFoundError);
    unsubscribe();
    await secrets.set(APP, 'TOKEN_B', 'three');
    expect(changes).toEqual([
      { appId: APP, name: 'TOKEN_A', kind: 'set' },
      { appId: APP, name: 'TOKEN_A', kind: 'set' },
      { appId: APP, name: 'TOKEN_A', kind: 'deleted' },
    ]);
    expect(JSON.stringify(changes)).not.toMatch(/one|two/);
  });

  it('tells other instances through the hub, and hears theirs', async () => {
    const handlers = new Map<string, (payload: unknown) => void>();
    const sent: unknown[] = [];
    const hub = {
      dispatch: (name: string, payload: unknown) => {
        sent.push(payload);
        handlers.get(name)?.(payload);
      },
      handle: (name: string, handler: (payload: unknown) => void) => void handlers.set(name, handler),
    };
    const secrets = createSecretsService({ store: createSecretsStore(db), key, keySource: 'x', hub });
    const heard: string[] = [];
    secrets.subscribe((change) => heard.push(`${change.kind}:${change.name}`));
    await secrets.set(APP, 'HUB_TOKEN', 'secret-value');
    // Another instance's change arrives as a dispatch from the hub.
    handlers.get('queen:secrets-changed')?.({ appId: APP, name: 'REMOTE', kind: 'deleted' });
    handlers.get('queen:secrets-changed')?.({ appId: APP, name: 'BAD' });
    expect(heard).toEqual(['set:HUB_TOKEN', 'deleted:REMOTE']);
    expect(JSON.stringify(sent)).not.toContain('secret-value');
  });

  it('refuses to start with a key that cannot open the stored secrets, naming the secret', async () => {
    await service().set(APP, 'KEPT', 'value');
    const wrong = service(randomBytes(32));
    await expect(wrong.verifyKey(APP)).rejects.toThrow(NotConfiguredError);
    await expect(wrong.verifyKey(APP)).rejects.toThrow(/SECRETS_KEY.*cannot decrypt the stored secret/);
    await expect(wrong.secretsFor(APP)).rejects.toThrow(NotConfiguredError);
    expect(await service().verifyKey(APP)).toBeGreaterThan(0);
  });

  it('detects a value altered in the database', async () => {
    await service().set(APP, 'ALTERED', 'value');
    // The first character of the IV (`v1.<iv>.…`): all six of its bits are data. (The last character of
    // a base64 part may carry padding bits only, so changing it can leave the bytes as they were.)
    await db.query(
      `UPDATE app_secrets
       SET sealed = overlay(sealed PLACING (CASE WHEN substr(sealed, 4, 1) = 'A' THEN 'B' ELSE 'A' END) FROM 4 FOR 1)
       WHERE app_id = $1 AND name = 'ALTERED'`,
      [APP],
    );
    await expect(service().get(APP, 'ALTERED')).rejects.toThrow(/cannot decrypt the stored secret ALTERED/);
    await service().delete(APP, 'ALTERED');
  });

  it('checks names and bounds values', async () => {
    const secrets = service();
    await expect(secrets.set(APP, 'with-dash', 'x')).rejects.toThrow(InvalidInputError);
    await expect(secrets.set(APP, 'EMPTY', '')).rejects.toThrow(/needs a value/);
    await expect(secrets.set(APP, 'HUGE', 'x'.repeat(MAX_SECRET_BYTES + 1))).rejects.toThrow(/too long/);
  });
});

describe('secretNameProblem', () => {
  it.each([
    'RESEND_API_KEY',
    'A',
    '_PRIVATE',
    'KEY_2',
    'X'.repeat(64),
    'google_oauth_client_secret',
    'sso_name',
  ])('accepts %s', (name) => {
    expect(secretNameProblem(name)).toBeNull();
  });

  it.each(['', '2FA_KEY', 'WITH-DASH', 'WITH SPACE', 'X'.repeat(65), 'ÄPI'])('refuses %j', (name) => {
    expect(secretNameProblem(name)).toMatch(/is not valid/);
  });

  it.each([
    'DENO_DIR',
    'B44_FN_SOCKET',
    'BASE44_APP_ID',
    'NPM_CONFIG_REGISTRY',
    'LD_PRELOAD',
    'PATH',
    'NO_COLOR',
    'deno_dir',
    'path',
  ])('reserves %s', (name) => {
    expect(secretNameProblem(name)).toMatch(/reserved/);
  });
});
