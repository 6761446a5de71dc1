// `auth/config.jsonc`: read from the auth folder (or `authDir`), the defaults without it, and a wrong value
// stops the start naming the file and the key.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAuthConfig } from './auth-config-loader';
import { loadProject } from './project-loader';

const dirs: string[] = [];
const shown = (file: string) => file.split('/').slice(-3).join('/');
async function projectWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'auth-config-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('loadAuthConfig', () => {
  it('gives the defaults without a file, and reads the file with comments and unknown keys', async () => {
    expect(await loadAuthConfig(await projectWith({}), 'auth', shown)).toEqual({
      config: expect.objectContaining({ enableUsernamePassword: true, enableGoogleLogin: false }),
      file: undefined,
    });
    const dir = await projectWith({
      'auth/config.jsonc':
        '{ // as the CLI writes it\n "enableGoogleLogin": true, "googleOAuthMode": "custom", "later": 1, }',
    });
    const loaded = await loadAuthConfig(dir, 'auth', shown);
    expect(loaded.config).toMatchObject({ enableGoogleLogin: true, googleOAuthMode: 'custom', later: 1 });
    expect(loaded.file).toMatch(/auth\/config\.jsonc$/);
  });

  it('follows authDir of config.jsonc, and names the file and key of a wrong value', async () => {
    const dir = await projectWith({
      'config.jsonc': '{ "name": "x", "authDir": "sign-in" }',
      'sign-in/config.jsonc': '{ "enableSSOLogin": "yes" }',
    });
    await expect(loadProject(dir)).rejects.toThrow(
      /sign-in\/config\.jsonc: enableSSOLogin: must be true or false/,
    );
  });
});
