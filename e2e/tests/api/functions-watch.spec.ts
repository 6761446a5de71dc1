// Working on functions: FUNCTIONS_WATCH=on serves an edited function's new code and a new function folder
// without restarting the server (a copy of e2e/fixtures/functions); `npm run cli -- functions install`
// fetches every function's packages ahead of time and names the ones that fail.
import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../../support/test';
import { FUNCTIONS_ENV, FUNCTIONS_PROJECT } from '../../support/functions-project';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { runCli } from '../../support/cli-process';
import { REPO_ROOT, startServer } from '../../support/server-process';

test('an edited or added function runs its new code on the next call', async () => {
  test.setTimeout(120_000);
  const project = await mkdtemp(join(tmpdir(), 'queen-watch-'));
  // Functions run as nobody when the tests run as root: their code must be readable by others.
  await chmod(project, 0o755);
  await cp(FUNCTIONS_PROJECT, project, { recursive: true });
  const server = await startServer({
    env: { ...FUNCTIONS_ENV, PROJECT_DIR: project, FUNCTIONS_WATCH: 'on' },
  });
  const text = async (name: string) => {
    const response = await fetch(`${server.url}/api/apps/${DEFAULT_APP_ID}/functions/${name}`, {
      method: 'POST',
    });
    return `${response.status} ${await response.text()}`;
  };
  try {
    expect(await text('hello')).toMatch(/^200 \{"method":"POST"/);
    await writeFile(join(project, 'functions/hello/entry.ts'), 'Deno.serve(() => new Response("edited"));\n');
    await expect.poll(() => text('hello'), { timeout: 20_000 }).toBe('200 edited');

    await mkdir(join(project, 'functions/added'));
    await writeFile(
      join(project, 'functions/added/entry.ts'),
      'Deno.serve(() => new Response("new one"));\n',
    );
    await expect.poll(() => text('added'), { timeout: 20_000 }).toBe('200 new one');
    expect(server.logs()).toContain('functions changed: reloaded');
  } finally {
    await server.stop();
    await rm(project, { recursive: true, force: true });
  }
});

test('functions install caches every function’s packages and names the one that does not compile', async () => {
  test.setTimeout(120_000);
  const dataDir = await mkdtemp(join(tmpdir(), 'queen-install-'));
  try {
    const result = await runCli(['functions', 'install'], {
      DATA_DIR: dataDir,
      PROJECT_DIR: FUNCTIONS_PROJECT,
      FUNCTIONS_DENO_DIR: join(REPO_ROOT, 'e2e/.cache/deno'),
    });
    const report = JSON.parse(result.stdout) as { cached: string[]; failed: Record<string, string> };
    expect(report.cached).toEqual(expect.arrayContaining(['whoAmI', 'caller', 'hello', 'onNote']));
    expect(Object.keys(report.failed)).toEqual(['broken']);
    expect(result.code).toBe(1);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
