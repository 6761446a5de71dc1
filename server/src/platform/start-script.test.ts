// `npm start -- --app PATH` (scripts/start.mjs): the checks it makes before building or starting anything.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const START = resolve(import.meta.dirname, '../../../scripts/start.mjs');
const folders: string[] = [];

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

function start(...args: string[]) {
  const run = spawnSync(process.execPath, [START, ...args], { encoding: 'utf8', timeout: 20_000 });
  return { status: run.status, stderr: run.stderr };
}

describe('npm start -- --app PATH', () => {
  it('says how to build the app, with its id, when PATH/dist has no build', async () => {
    const app = await mkdtemp(join(tmpdir(), 'queen-start-app-'));
    folders.push(app);
    await mkdir(join(app, 'base44'));
    await writeFile(
      join(app, 'base44/.app.jsonc'),
      '{\n  // written by base44\n  "id": "693f619e713b90b51412cfe0",\n}\n',
    );
    const run = start('--app', app);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${join(app, 'dist')} holds no build`);
    expect(run.stderr).toContain('npm ci');
    expect(run.stderr).toContain('VITE_BASE44_APP_ID=693f619e713b90b51412cfe0 npm run build');
  });

  it('adds the server origin for a late-2025 app whose app-params reads VITE_BASE44_BACKEND_URL', async () => {
    const app = await mkdtemp(join(tmpdir(), 'queen-start-app-'));
    folders.push(app);
    await mkdir(join(app, 'base44'));
    await mkdir(join(app, 'src/lib'), { recursive: true });
    await writeFile(join(app, 'base44/.app.jsonc'), '{"id": "app-late-2025"}');
    await writeFile(
      join(app, 'src/lib/app-params.js'),
      'export const serverUrl = import.meta.env.VITE_BASE44_BACKEND_URL;\n',
    );
    const run = spawnSync(process.execPath, [START, '--app', app], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, PUBLIC_URL: 'https://camp.example', PORT: '', HOST: '' },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'VITE_BASE44_APP_ID=app-late-2025 VITE_BASE44_BACKEND_URL=https://camp.example npm run build',
    );
  });

  it('starts a folder without base44/ or .app.jsonc: the id its build was made with, the visibility its shell needs', async () => {
    const app = await mkdtemp(join(tmpdir(), 'queen-start-app-'));
    folders.push(app);
    await mkdir(join(app, 'dist/assets'), { recursive: true });
    await mkdir(join(app, 'src/lib'), { recursive: true });
    await writeFile(join(app, 'dist/index.html'), '<!doctype html><div id="root"></div>');
    // What vite leaves of the template's app-params.js once VITE_BASE44_APP_ID is replaced.
    await writeFile(
      join(app, 'dist/assets/index-a1b2.js'),
      'const s=X("app_id",{defaultValue:"68a1b2c3d4e5f60718293a4b"}),t=X("server_url",{defaultValue:void 0});',
    );
    await writeFile(
      join(app, 'src/lib/AuthContext.jsx'),
      "if (reason === 'auth_required') setAuthError({ type: 'auth_required' });",
    );
    const run = spawnSync(process.execPath, [START, '--app', app, '--check'], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, APP_ID: '', APP_VISIBILITY: '' },
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('App id 68a1b2c3d4e5f60718293a4b');
    expect(run.stdout).toContain('has no base44/ folder');
    expect(run.stdout).toContain('APP_VISIBILITY=private_with_login');
    expect(run.stdout).toContain(`Hosting ${app}`);
  });

  it("never serves our own site's id for a foreign build: without one it says how to set APP_ID", async () => {
    const app = await mkdtemp(join(tmpdir(), 'queen-start-app-'));
    folders.push(app);
    await mkdir(join(app, 'dist'), { recursive: true });
    await writeFile(join(app, 'dist/index.html'), '<!doctype html>');
    const run = spawnSync(process.execPath, [START, '--app', app, '--check'], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, APP_ID: '' },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('start again with APP_ID=<the VITE_BASE44_APP_ID the app was built with>');
    const chosen = spawnSync(process.execPath, [START, '--app', app, '--check'], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, APP_ID: 'chosen-id' },
    });
    expect(chosen.status).toBe(0);
    expect(chosen.stdout).not.toContain('App id');
  });

  it('refuses an app id that is not one (it would be printed into a command to copy)', async () => {
    const app = await mkdtemp(join(tmpdir(), 'queen-start-app-'));
    folders.push(app);
    await mkdir(join(app, 'base44'));
    await writeFile(join(app, 'base44/.app.jsonc'), '{"id": "x; touch /tmp/pwned #"}');
    const run = start('--app', app);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('"id" must be 1–64 letters, digits, "_" or "-"');
    expect(run.stderr).not.toContain('touch');
  });

  it('refuses an unknown option with the usage', () => {
    const run = start('--apps', 'x');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Usage: npm start [-- --app PATH [--check]]');
  });
});
