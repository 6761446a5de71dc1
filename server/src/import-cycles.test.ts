// No module in server/src imports itself through others: a cycle makes start-up order fragile and a folder
// impossible to read on its own. Lint checks which layers may import which; this checks files and folders
// (each services/<capability> is a folder of its own, so `auth` ↔ `users` is a cycle even inside services/).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = import.meta.dirname;
const RELATIVE_IMPORT = /^\s*(?:import|export)\b[^'"]*?from\s+'(?<path>\.{1,2}\/[^']+)'/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function importsOf(file: string, known: Set<string>): string[] {
  const targets: string[] = [];
  for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
    const base = resolve(dirname(file), match.groups?.path ?? '');
    const target = [`${base}.ts`, join(base, 'index.ts'), base].find((path) => known.has(path));
    if (target) targets.push(target);
  }
  return targets;
}

/** Every cycle found by a depth-first walk, each as the list of files around it. */
function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

/** folderOf is the folder a file counts in: services/<capability>, else its top folder (`.` for main.ts). */
function folderOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  if (parts[0] === 'services' && parts.length > 2) return `services/${parts[1]}`;
  return parts.length > 1 ? (parts[0] ?? '.') : '.';
}

/** folderGraph is which folders import which, from the file graph (a folder's own imports left out). */
function folderGraph(files: Map<string, string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = folderOf(file);
    const edges = folders.get(from) ?? new Set<string>();
    for (const target of targets) if (folderOf(target) !== from) edges.add(folderOf(target));
    folders.set(from, edges);
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges].sort()]));
}

describe('server/src imports', () => {
  const files = sourceFiles(SRC);
  const known = new Set(files);
  const graph = new Map(files.map((file) => [file, importsOf(file, known)]));

  it('form no cycle between files', () => {
    const cycles = findCycles(graph).map((cycle) => cycle.map((file) => relative(SRC, file)).join(' → '));
    expect(cycles).toEqual([]);
  });

  it('form no cycle between folders', () => {
    const cycles = findCycles(folderGraph(graph)).map((cycle) => cycle.join(' → '));
    expect(cycles).toEqual([]);
  });

  it('counts a services/<capability> folder on its own', () => {
    const graph = new Map([
      [join(SRC, 'services/auth/a.ts'), [join(SRC, 'services/users/b.ts')]],
      [join(SRC, 'services/users/b.ts'), [join(SRC, 'services/auth/c.ts')]],
      [join(SRC, 'services/auth/c.ts'), []],
    ]);
    expect(findCycles(folderGraph(graph))).toEqual([['services/auth', 'services/users', 'services/auth']]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
