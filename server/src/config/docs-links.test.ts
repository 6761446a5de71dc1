// The documentation names files, and a file that moves must take its mentions along: every relative link and
// every backticked repository path in the READMEs and docs/ must point at something that exists, and every
// document a source comment cites must be one in this repository (docs/ explains what the code relies on).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

/** DOCS are the documents checked: every README and the topic pages of docs/. */
const DOCS = [
  'README.md',
  'server/README.md',
  'e2e/README.md',
  'e2e/tests/security/README.md',
  'bench/README.md',
  'site/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/**
 * BASES are where a backticked path may start besides the repository's root and the document's own folder:
 * server docs name files relative to server/src (`routes/admin.ts`), e2e docs relative to e2e/
 * (`support/outbox.ts`), site docs relative to site/ or site/src.
 */
const BASES = ['server/src', 'server', 'site', 'site/src', 'e2e'];

/** SKIPPED_FIRST_SEGMENTS start paths that are not the repository's files: builds, data, an app project's. */
const SKIPPED_FIRST_SEGMENTS = new Set([
  // Built or written at run time (git-ignored).
  'dist',
  'data',
  'node_modules',
  '.cache',
  'test-results',
  '.tmp',
  // Paths inside a hosted app's repository (`base44/functions/<name>/entry.ts`), not this one's.
  'base44',
  'entities',
  'functions',
  'integrations',
  'seed',
  'shared',
  'agents',
  'connectors',
]);

/** GENERATED are paths below which everything is built (`server/dist/cli.js`, `site/dist`). */
const GENERATED = [
  'server/dist',
  'site/dist',
  'e2e/.cache',
  'e2e/test-results',
  'bench/.cache',
  'bench/.tmp',
];

const SOURCE_EXTENSIONS = /\.(ts|tsx|mts|mjs|cjs)$/;
const FILE_EXTENSIONS = /\.(ts|tsx|mts|mjs|cjs|js|json|jsonc|md|css|html|sh|ya?ml|png|jpe?g)$/;

/** WALKED are the folders whose files count as "somewhere in the repository" for bare file names. */
const WALKED = ['server/src', 'server/scripts', 'site', 'e2e', 'bench', 'scripts', 'docs', '.ci'];
const NOT_WALKED = new Set(['node_modules', 'dist', '.cache', '.tmp', 'test-results', 'playwright-report']);

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_WALKED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

const ALL_FILES = WALKED.flatMap((dir) => filesUnder(join(ROOT, dir)));
const BASENAMES = new Set(ALL_FILES.map((path) => basename(path)));

/** withoutFences drops fenced code blocks (commands), keeping line numbers. */
function withoutFences(text: string): string {
  let inFence = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line;
    })
    .join('\n');
}

/** slug is GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** anchorsOf lists every heading anchor of a Markdown file (a repeated heading gets `-1`, `-2`…). */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of withoutFences(readFileSync(file, 'utf8')).matchAll(/^#{1,6} +(.+)$/gm)) {
    const base = slug(match[1] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** brokenLinks lists the relative links of a document whose file or heading does not exist. */
function brokenLinks(doc: string): string[] {
  const file = join(ROOT, doc);
  const text = withoutFences(readFileSync(file, 'utf8'));
  const broken: string[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1] as string;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [path = '', anchor] = target.split('#');
    const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
    if (!existsSync(resolved)) {
      broken.push(`${doc}: link ${target} (no such file)`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
      broken.push(`${doc}: link ${target} (no such heading in ${relative(ROOT, resolved)})`);
    }
  }
  return broken;
}

/** isRepoPath says whether a code span looks like a path of this repository (not a URL, pattern or command). */
function isRepoPath(span: string): boolean {
  if (!/^[A-Za-z0-9_.@/-]+$/.test(span)) return false; // spaces, <name>, *, {a,b}, ~, … are patterns or commands
  // A file has its extension, a folder its trailing slash; `User/me`, `10.0.0.0/8` or `a/b/c` are neither.
  if (!FILE_EXTENSIONS.test(span) && !span.endsWith('/')) return false;
  if (span.startsWith('/') || span.startsWith('@') || span.includes('//')) return false; // URL paths, packages
  if (span.startsWith('../')) return false; // beside the repository (the fixture apps), checked by their tests
  const first = span.split('/')[0] as string;
  if (SKIPPED_FIRST_SEGMENTS.has(first) || /^[A-Z][A-Z0-9_]*$/.test(first)) return false; // DATA_DIR/…
  if (GENERATED.some((prefix) => span === prefix || span.startsWith(`${prefix}/`))) return false;
  return true;
}

/** missingPaths lists the backticked repository paths of a document that exist nowhere they could start. */
function missingPaths(doc: string): string[] {
  const text = withoutFences(readFileSync(join(ROOT, doc), 'utf8'));
  const missing = new Set<string>();
  for (const match of text.matchAll(/`([^`\n]+)`/g)) {
    const span = (match[1] as string).trim().replace(/^\.\//, '');
    if (!isRepoPath(span)) continue;
    if (!span.includes('/')) {
      // A bare file name (`read-table.ts`, in a list after its folder): some source file or document must
      // have it (a bare `.json` or `.html` is often one an app or a build has, not ours).
      const ours = SOURCE_EXTENSIONS.test(span) || span.endsWith('.md');
      if (ours && !BASENAMES.has(span)) missing.add(`${doc}: \`${span}\``);
      continue;
    }
    const starts = [ROOT, dirname(join(ROOT, doc)), ...BASES.map((base) => join(ROOT, base))];
    if (!starts.some((start) => existsSync(join(start, span)))) missing.add(`${doc}: \`${span}\``);
  }
  return [...missing];
}

/** COMMENTED are the source folders whose comments are checked for the documents they cite. */
const COMMENTED = ['server/src', 'server/scripts', 'site/src', 'site/scripts', 'e2e', 'bench/src', 'scripts'];
const SOURCE_FILE = /\.(ts|tsx|mts|mjs|cjs|js)$/;

/** commentOf is the comment part of a source line ('' when it has none). */
function commentOf(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith('//') || trimmed.startsWith('/*') || trimmed.startsWith('*')) return trimmed;
  const trailing = line.indexOf(' // ');
  return trailing === -1 ? '' : line.slice(trailing);
}

/** MD_FILES are every Markdown file of the repository, by path from the root. */
const MD_FILES = [...DOCS, ...ALL_FILES.filter((path) => path.endsWith('.md')).map((p) => relative(ROOT, p))];

/** citesMissingDocument says what is wrong with the documents a comment cites, or null. */
function citesMissingDocument(comment: string, file: string): string | null {
  if (/shared\/(spec|reference)\b/.test(comment)) return 'cites shared/ (outside the repository)';
  // Our documents have no numbered sections: cite a heading. PostgreSQL's manual is the one numbered source.
  if (/§/.test(comment) && !/PostgreSQL §/.test(comment)) return 'cites a numbered section (§)';
  // A comment naming a heading (`docs/environment.md, "Environment"`) needs that heading there too.
  for (const match of comment.matchAll(/(docs\/[\w-]+\.md), "([^"]+)"/g)) {
    const cited = join(ROOT, match[1] as string);
    if (existsSync(cited) && !anchorsOf(cited).has(slug(match[2] as string))) {
      return `cites the heading "${match[2]}", which ${match[1]} does not have`;
    }
  }
  for (const match of comment.matchAll(/([\w./-]*[\w-]+\.md)\b/g)) {
    const cited = match[1] as string;
    const known =
      MD_FILES.some((path) => path === cited || path.endsWith(`/${cited}`) || basename(path) === cited) ||
      existsSync(resolve(dirname(file), cited));
    if (!known) return `cites ${cited}, which is not in the repository`;
  }
  return null;
}

describe('the documentation', () => {
  it.each(DOCS)('%s: every relative link reaches an existing file and heading', (doc) => {
    expect(brokenLinks(doc)).toEqual([]);
  });

  it.each(DOCS)('%s: every backticked repository path exists', (doc) => {
    expect(missingPaths(doc)).toEqual([]);
  });

  it.each(DOCS)('%s: cites no document outside the repository', (doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    expect(text.match(/shared\/(spec|reference)\/[\w./-]*/g) ?? []).toEqual([]);
  });

  it('source comments cite only documents of the repository', () => {
    const problems: string[] = [];
    for (const dir of COMMENTED) {
      for (const file of filesUnder(join(ROOT, dir)).filter((path) => SOURCE_FILE.test(path))) {
        if (!statSync(file).isFile() || file.includes(`${join('e2e', 'fixtures')}`)) continue;
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, index) => {
            const problem = citesMissingDocument(commentOf(line), file);
            if (problem) problems.push(`${relative(ROOT, file)}:${index + 1}: ${problem}`);
          });
      }
    }
    expect(problems).toEqual([]);
  });
});
