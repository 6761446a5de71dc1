// Size limits of server code, checked rather than advised: no function (declaration, closure, method or
// arrow, nested ones too) in server/src spans more than MAX_FUNCTION_LINES lines, and a file over
// MAX_FILE_LINES lines says why in its opening comment ("Over 300 lines on purpose: …"). Tests are left
// out.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = import.meta.dirname;
const MAX_FUNCTION_LINES = 200;
const MAX_FILE_LINES = 300;
/** EXEMPT are folders (relative to server/src) not checked (none: a folder is added here only with a reason). */
const EXEMPT: string[] = [];
/** REASON is what a file over MAX_FILE_LINES says in its opening comment, followed by why. */
const REASON = 'Over 300 lines on purpose:';

/** LongFunction is one function over the limit: where it starts, what it is called, how many lines. */
interface LongFunction {
  path: string;
  line: number;
  name: string;
  lines: number;
}

function hasBody(node: ts.Node): node is ts.FunctionLikeDeclaration {
  const functionLike =
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node);
  return functionLike && node.body !== undefined;
}

/** nameOf is a function's own name, else the name it is bound to (variable, property), else "(anonymous)". */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name) {
    return parent.name.getText(source);
  }
  return ts.isConstructorDeclaration(node) ? 'constructor' : '(anonymous)';
}

/** longFunctions lists the functions of one file's text spanning more than max lines (first to last line). */
function longFunctions(path: string, text: string, max: number): LongFunction[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (hasBody(node)) {
      // From the line the function starts on (its doc comment left out) to its closing line, both counted.
      const line = lineOf(node.getStart(source));
      const lines = lineOf(node.getEnd()) - line + 1;
      if (lines > max) found.push({ path, line, name: nameOf(node, source), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** saysWhyItIsLong tells whether a file's opening comment (before any code) gives the reason. */
function saysWhyItIsLong(text: string): boolean {
  const opening = ts.getLeadingCommentRanges(text, 0) ?? [];
  return opening.some((range) => text.slice(range.pos, range.end).includes(REASON));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** serverFiles are server/src's source files (path relative to it, and text), the exempt folders left out. */
function serverFiles(): { path: string; text: string }[] {
  return sourceFiles(SRC)
    .map((file) => ({ path: relative(SRC, file), text: readFileSync(file, 'utf8') }))
    .filter(({ path }) => !EXEMPT.some((folder) => path.startsWith(folder)));
}

/** lineCount is how many lines text has (as `wc -l` counts them when it ends with a newline). */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** syntheticFunction is `function name() {…}` spanning exactly lines lines. */
const syntheticFunction = (name: string, lines: number) =>
  [`function ${name}() {`, ...Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`), '}'].join(
    '\n',
  );

describe('the function size check', () => {
  it('finds a function over the limit, with its line, name and length, and not one at the limit', () => {
    const text = ['// A file.', syntheticFunction('atLimit', 200), syntheticFunction('tooLong', 201)].join(
      '\n',
    );
    expect(longFunctions('synthetic.ts', text, 200)).toEqual([
      { path: 'synthetic.ts', line: 202, name: 'tooLong', lines: 201 },
    ]);
  });

  it('finds long arrows, methods and closures inside short-named outer functions, each on its own', () => {
    const body = Array.from({ length: 250 }, (_, i) => `    step(${i});`).join('\n');
    const text = [
      'export const build = () => {',
      '  return {',
      '    run() {',
      body,
      '    },',
      '  };',
      '};',
    ].join('\n');
    expect(longFunctions('nested.ts', text, 200)).toEqual([
      { path: 'nested.ts', line: 1, name: 'build', lines: 256 },
      { path: 'nested.ts', line: 3, name: 'run', lines: 252 },
    ]);
  });

  it('reads the reason for a long file from its opening comment only', () => {
    expect(saysWhyItIsLong(`// ${REASON} one table.\nconst a = 1;`)).toBe(true);
    expect(saysWhyItIsLong(`// What it holds.\n// ${REASON} one parser.\n\nconst a = 1;`)).toBe(true);
    expect(saysWhyItIsLong(`// What it holds.\nconst a = 1;\n// ${REASON} too late.`)).toBe(false);
  });
});

describe(EXEMPT.length > 0 ? `server/src (${EXEMPT.join(', ')} exempt)` : 'server/src', () => {
  const files = serverFiles();

  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const offenders = files
      .flatMap(({ path, text }) => longFunctions(path, text, MAX_FUNCTION_LINES))
      .map(({ path, line, name, lines }) => `${path}:${line} ${name} (${lines} lines)`);
    expect(offenders).toEqual([]);
    // Parsing every file takes seconds on a busy machine.
  }, 60_000);

  it(`says why in the opening comment of every file over ${MAX_FILE_LINES} lines`, () => {
    const unexplained = files
      .map(({ path, text }) => ({ path, text, lines: lineCount(text) }))
      .filter(({ text, lines }) => lines > MAX_FILE_LINES && !saysWhyItIsLong(text))
      .map(({ path, lines }) => `${path} (${lines} lines)`);
    expect(unexplained).toEqual([]);
  });
});
