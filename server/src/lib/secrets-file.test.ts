import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSecrets } from './secrets-file';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'secrets-file-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadSecrets: the secrets key', () => {
  it('generates a key once into secrets.json (0600) and keeps it across starts', async () => {
    const first = await loadSecrets(dir, {});
    expect(first.secretsKey).toHaveLength(32);
    expect(first.secretsKeySource).toBe('secrets.json');
    const second = await loadSecrets(dir, {});
    expect(second.secretsKey.equals(first.secretsKey)).toBe(true);
    expect((await stat(join(dir, 'secrets.json'))).mode & 0o777).toBe(0o600);
  });

  it('adds the key to a secrets.json written before it existed, keeping the other secrets', async () => {
    await writeFile(
      join(dir, 'secrets.json'),
      JSON.stringify({ jwtSecret: 'j'.repeat(40), serviceToken: 's'.repeat(40) }),
    );
    const loaded = await loadSecrets(dir, {});
    expect(loaded.jwtSecret).toBe('j'.repeat(40));
    const stored = JSON.parse(await readFile(join(dir, 'secrets.json'), 'utf8')) as Record<string, string>;
    expect(Buffer.from(stored.secretsKey ?? '', 'base64').equals(loaded.secretsKey)).toBe(true);
  });

  it('prefers SECRETS_KEY, and names the file when its key is damaged', async () => {
    const configured = randomBytes(32);
    const loaded = await loadSecrets(dir, { secretsKey: configured.toString('hex') });
    expect(loaded.secretsKey.equals(configured)).toBe(true);
    expect(loaded.secretsKeySource).toBe('SECRETS_KEY');
    await writeFile(join(dir, 'secrets.json'), JSON.stringify({ secretsKey: 'short' }));
    await expect(loadSecrets(dir, {})).rejects.toThrow(/secrets\.json \(secretsKey\): must be 32 bytes/);
  });
});
