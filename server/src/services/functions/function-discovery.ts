// The app's backend functions on disk, in the three layouts the Base44 CLI knows
// (docs/functions.md, "Writing one"): a folder holding `function.jsonc` (`name`, `entry`,
// `automations`), a zero-config folder holding `entry.ts`/`entry.js` (its name is the folder path), and
// the older `functions/<name>.ts`. Found at start; a broken `function.jsonc` stops the start naming it,
// like every other project file. Whether the code compiles is only known when Deno loads it.
import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { AutomationsSchema, type Automation } from '../automations/automation-config';
import { check, MISSING, ProjectError, readJsonc } from '../../project/project-files';

/** FunctionDef is one function: its name (the URL path after `functions/`) and its entry file. */
export interface FunctionDef {
  name: string;
  /** entry is the absolute path of the module Deno runs. */
  entry: string;
  automations: Automation[];
}

/** FUNCTION_NAME is what a name may hold: path segments of letters, digits, `_` and `-` (no dots). */
export const FUNCTION_NAME = /^[A-Za-z0-9_-]{1,100}(\/[A-Za-z0-9_-]{1,100}){0,7}$/;
/** MAX_FUNCTIONS bounds how many functions one project declares. */
const MAX_FUNCTIONS = 500;
const ENTRY_FILES = ['entry.ts', 'entry.js'];
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.deno']);

const FunctionFileSchema = z.looseObject({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be 1–100 letters, digits, "_" or "-" (no dots)'),
  entry: z.string().min(1).default('entry.ts'),
  automations: AutomationsSchema.optional().default([]),
});

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isFile(),
    () => false,
  );
}

async function entries(dir: string) {
  return readdir(dir, { withFileTypes: true }).catch(() => []);
}

/** loadFunctions finds every function under functionsDir; shown names files in problems. */
export async function loadFunctions(
  functionsDir: string,
  shown: (file: string) => string = (file) => file,
): Promise<Map<string, FunctionDef>> {
  const found = new Map<string, FunctionDef>();
  const add = (def: FunctionDef, file: string) => {
    if (found.has(def.name))
      throw new ProjectError(`${shown(file)}: function "${def.name}" is declared twice`);
    if (found.size >= MAX_FUNCTIONS)
      throw new ProjectError(`${shown(file)}: more than ${MAX_FUNCTIONS} functions`);
    found.set(def.name, def);
  };

  async function walk(dir: string, depth: number): Promise<void> {
    const configFile = join(dir, 'function.jsonc');
    const config = depth > 0 ? await readJsonc(configFile, shown(configFile), true) : MISSING;
    if (config !== MISSING) {
      const parsed = check(FunctionFileSchema, config, shown(configFile));
      const entry = resolve(dir, parsed.entry);
      if (!entry.startsWith(dir + sep) || !(await isFile(entry))) {
        throw new ProjectError(`${shown(configFile)}: entry "${parsed.entry}" is not a file in this folder`);
      }
      add({ name: parsed.name, entry, automations: parsed.automations }, configFile);
      return;
    }
    if (depth > 0) {
      for (const name of ENTRY_FILES) {
        const entry = join(dir, name);
        if (!(await isFile(entry))) continue;
        const fnName = relative(functionsDir, dir).split(sep).join('/');
        if (!FUNCTION_NAME.test(fnName)) throw new ProjectError(`${shown(dir)}: not a valid function name`);
        add({ name: fnName, entry, automations: [] }, entry);
        return;
      }
    }
    for (const item of (await entries(dir)).sort((a, b) => a.name.localeCompare(b.name))) {
      if (item.isDirectory() && !SKIPPED_DIRS.has(item.name) && depth < 8) {
        await walk(join(dir, item.name), depth + 1);
      } else if (depth === 0 && item.isFile() && /^[A-Za-z0-9_-]+\.(ts|js)$/.test(item.name)) {
        // The older layout: `functions/<name>.ts` (a name holding dots, such as `x.test.ts`, is none).
        const entry = join(dir, item.name);
        add({ name: item.name.replace(/\.(ts|js)$/, ''), entry, automations: [] }, entry);
      }
    }
  }

  await walk(resolve(functionsDir), 0);
  return found;
}

/** findFunction returns the function a path names (the longest name that is a prefix) and the rest. */
export function findFunction(
  functions: ReadonlyMap<string, FunctionDef>,
  path: string,
): { def: FunctionDef; rest: string } | null {
  const segments = path.split('/');
  for (let count = Math.min(segments.length, 8); count > 0; count -= 1) {
    const def = functions.get(segments.slice(0, count).join('/'));
    if (def) return { def, rest: segments.slice(count).join('/') };
  }
  return null;
}
