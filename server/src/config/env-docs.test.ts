import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envExample } from './env-example';
import { ServerEnvSchema } from './server-env';

// The environment is documented from one source: `.env.example` is written from the schema, and the one
// table that explains each setting (docs/environment.md) must name every setting the schema has, nothing
// else, and state the schema's own default wherever the schema has one.
const ROOT = join(import.meta.dirname, '../../..');
const TABLE_DOC = 'docs/environment.md';

/** READ_ELSEWHERE are variables read outside the server's schema (the project folder, the site's build). */
const READ_ELSEWHERE = new Set(['PROJECT_DIR', 'NODE_ENV', 'SITE_CONFIG']);

interface Row {
  name: string;
  defaultCell: string;
}

/** tableRows are the rows of the environment table: one variable each, with its default cell. */
function tableRows(): Row[] {
  const rows: Row[] = [];
  for (const line of readFileSync(join(ROOT, TABLE_DOC), 'utf8').split('\n')) {
    if (!line.startsWith('| `')) continue;
    const [, variable = '', defaultCell = ''] = line.split('|').map((cell) => cell.trim());
    const name = /^`([A-Z][A-Z0-9_]+)`$/.exec(variable)?.[1];
    if (name) rows.push({ name, defaultCell });
  }
  return rows;
}

/** schemaDefault is what the schema gives a setting left unset, as text ('' when it has none). */
function schemaDefault(name: string): string {
  const parsed = ServerEnvSchema.shape[name as keyof typeof ServerEnvSchema.shape].safeParse(undefined);
  if (!parsed.success || parsed.data === undefined) return '';
  const value: unknown = parsed.data;
  if (Array.isArray(value)) return value.join(',');
  return typeof value === 'object' && value !== null ? '' : String(value);
}

describe('the environment documentation', () => {
  it('.env.example is what `npm run env:example -w server` writes from the schema', () => {
    expect(readFileSync(join(ROOT, '.env.example'), 'utf8')).toBe(envExample());
  });

  it(`${TABLE_DOC} names every setting of the schema once, and only those`, () => {
    const documented = tableRows().map((row) => row.name);
    const settings = Object.keys(ServerEnvSchema.shape);
    expect(settings.filter((name) => !documented.includes(name))).toEqual([]);
    expect(documented.filter((name) => !settings.includes(name) && !READ_ELSEWHERE.has(name))).toEqual([]);
    expect(documented.filter((name, index) => documented.indexOf(name) !== index)).toEqual([]);
  });

  it(`${TABLE_DOC} states the schema's default of every setting that has one`, () => {
    const wrong = tableRows()
      .filter((row) => !READ_ELSEWHERE.has(row.name))
      .map((row) => ({ ...row, expected: schemaDefault(row.name) }))
      .filter((row) => row.expected !== '' && !row.defaultCell.includes(`\`${row.expected}\``))
      .map((row) => `${row.name}: the table says ${row.defaultCell}, the schema \`${row.expected}\``);
    expect(wrong).toEqual([]);
  });

  it('every other table of docs/ that gives a setting a number states the schema default', () => {
    // Such as the limits table of docs/security.md: `AUTH_RATE_LIMIT_IP` / `AUTH_RATE_LIMIT_ACCOUNT` | 30 / 10.
    const settings = new Set(Object.keys(ServerEnvSchema.shape));
    const wrong: string[] = [];
    for (const name of readdirSync(join(ROOT, 'docs')).filter((file) => file.endsWith('.md'))) {
      for (const line of readFileSync(join(ROOT, 'docs', name), 'utf8').split('\n')) {
        if (!line.startsWith('|')) continue;
        const cells = line.split('|').map((cell) => cell.trim());
        cells.forEach((cell, index) => {
          if (!/^`[A-Z][A-Z0-9_]*`( \/ `[A-Z][A-Z0-9_]*`)*$/.test(cell)) return;
          const next = cells[index + 1] ?? '';
          if (!/^[\d,]+( \/ [\d,]+)*$/.test(next)) return;
          const names = cell.split(' / ').map((part) => part.replaceAll('`', ''));
          const values = next.split(' / ').map((part) => part.replaceAll(',', ''));
          if (names.length !== values.length) return;
          names.forEach((setting, at) => {
            if (settings.has(setting) && schemaDefault(setting) !== values[at]) {
              wrong.push(
                `docs/${name}: ${setting} is ${values[at]}, the schema says ${schemaDefault(setting)}`,
              );
            }
          });
        });
      }
    }
    expect(wrong).toEqual([]);
  });
});
