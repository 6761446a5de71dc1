import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from './settings';

const REPO_ROOT = resolve(import.meta.dirname, '../../..');

describe('loadSettings and the app id', () => {
  it('takes APP_ID first, then the project’s .app.jsonc id, then the site config', () => {
    const fromSite = loadSettings({}, REPO_ROOT).config.APP_ID;
    expect(loadSettings({}, REPO_ROOT, 'project-id').config.APP_ID).toBe('project-id');
    expect(loadSettings({ APP_ID: 'env-id' }, REPO_ROOT, 'project-id').config.APP_ID).toBe('env-id');
    expect(fromSite).toBe(loadSettings({}, REPO_ROOT, undefined).config.APP_ID);
    expect(fromSite).not.toBe('project-id');
  });
});
