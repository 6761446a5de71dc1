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

  it('refuses a folder without base44/', async () => {
    const app = await mkdtemp(join(tmpdir(), 'queen-start-app-'));
    folders.push(app);
    const run = start('--app', app);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${join(app, 'base44')} does not exist`);
  });

  it('refuses an unknown option with the usage', () => {
    const run = start('--apps', 'x');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Usage: npm start [-- --app PATH]');
  });
});
