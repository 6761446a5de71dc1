// Reading the project's files (`base44/`): JSONC with the file and line named on every problem.
import { readdir, readFile } from 'node:fs/promises';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';

/** ProjectError says a project file is missing or invalid; the message names the file and the problem. */
export class ProjectError extends Error {
  override name = 'ProjectError';
}

/** MISSING marks an optional project file that is not there (any other read failure stays an error). */
export const MISSING = Symbol('missing');

/** readJsonc parses file as JSONC (comments, trailing commas); shown is the name problems give. */
export async function readJsonc(file: string, shown: string, optional = false): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return MISSING;
    throw new ProjectError(`${shown}: cannot be read`);
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0] as ParseError;
    const line = text.slice(0, first.offset).split('\n').length;
    throw new ProjectError(`${shown}: invalid JSONC at line ${line} (${printParseErrorCode(first.error)})`);
  }
  return value;
}

/** check validates value against schema, or throws a ProjectError naming the file and the key. */
export function check<S extends z.ZodType>(schema: S, value: unknown, shown: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
  throw new ProjectError(`${shown}: ${where}${issue?.message ?? 'invalid'}`);
}

/** jsoncFiles lists the `.json`/`.jsonc` files of dir, sorted (none when dir is missing). */
export async function jsoncFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((name) => /\.jsonc?$/.test(name)).sort();
}
