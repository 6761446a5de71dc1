import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envExample } from './env-example';
import { ServerEnvSchema } from './server-env';

// The environment is documented twice from one source: `.env.example` is written from the schema, and the
// table in server/README.md ("Environment") must name every setting the schema has, and nothing else.
const ROOT = join(import.meta.dirname, '../../..');

/** READ_ELSEWHERE are variables read outside the server's schema (the project folder, the site's build). */
const READ_ELSEWHERE = new Set(['PROJECT_DIR']);

function environmentTableNames(): Set<string> {
  const readme = readFileSync(join(ROOT, 'server/README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Environment'),
    readme.indexOf('\n## ', readme.indexOf('## Environment') + 1),
  );
  const names = new Set<string>();
  for (const row of section.split('\n').filter((text) => text.startsWith('| `'))) {
    const firstCell = row.split('|')[1] ?? '';
    for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(match[1] as string);
  }
  return names;
}

describe('the environment documentation', () => {
  it('.env.example is what `npm run env:example -w server` writes from the schema', () => {
    expect(readFileSync(join(ROOT, '.env.example'), 'utf8')).toBe(envExample());
  });

  it("server/README.md's Environment table names every setting of the schema, and only those", () => {
    const documented = environmentTableNames();
    const settings = Object.keys(ServerEnvSchema.shape);
    expect(settings.filter((name) => !documented.has(name))).toEqual([]);
    expect([...documented].filter((name) => !settings.includes(name) && !READ_ELSEWHERE.has(name))).toEqual(
      [],
    );
  });
});
