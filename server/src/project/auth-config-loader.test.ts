// `auth/config.jsonc`: read from the auth folder (or `authDir`), the defaults without it, and a wrong value
// stops the start naming the file and the key.
import { describe, expect, it } from 'vitest';
import { shownPath, useTempProjects } from '../test-support/temp-project';
import { loadAuthConfig } from './auth-config-loader';
import { loadProject } from './project-loader';

const shown = shownPath;
const projectWith = useTempProjects('auth-config');

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
