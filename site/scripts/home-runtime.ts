// What Home's browser bundle runs on, and how it is compiled: its start is the one long task after the
// first paint (bench/README.md, "Site"), so both are chosen for that task.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Alias, Plugin } from 'vite';

/**
 * PREACT_COMPAT_ALIASES run Home's browser bundle on `preact/compat`, React's API on a 4 KB runtime, in
 * place of React DOM. The source, its unit tests and the build-time prerender stay React; the browser
 * tests drive this bundle. React DOM's start was Home's one long task, and its 60 KB most of Home's
 * script. The sign-in page and the console keep React DOM.
 */
export const PREACT_COMPAT_ALIASES: Alias[] = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
];

/**
 * HOME_MODULE_PRELOAD keeps the entry's preloads in the HTML (the loader moves them after the first paint)
 * but drops the ones Vite's helper would add from script when a lazy chunk is first imported. Hydration
 * imports the lazy toaster, and the helper's DOM work (reading every link, resolving URLs, appending
 * `<link rel=modulepreload>`) was ~10 ms of the hydration task; the lazy chunks are small and off the
 * paint's path, so their own imports can wait a round trip.
 */
export const HOME_MODULE_PRELOAD = {
  polyfill: false,
  resolveDependencies: (_file: string, deps: string[], context: { hostType: 'html' | 'js' }) =>
    context.hostType === 'html' ? deps : [],
};

/** EAGER_COMPILE_HINT is V8's explicit compile hint: compile every function of this file when it loads. */
export const EAGER_COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/**
 * eagerCompileInitialChunks marks the entry chunk and the chunks it imports statically with
 * EAGER_COMPILE_HINT. Hydration calls nearly all their functions at once; compiled eagerly, they compile
 * while the script streams in, off the main thread, instead of one by one inside the hydration task.
 * Lazy chunks keep V8's lazy compilation: most of their code may never run.
 */
export function eagerCompileInitialChunks(): Plugin {
  return {
    name: 'home-eager-compile-initial-chunks',
    apply: 'build',
    // On the written files: Vite's own last step still prepends its preload map to the entry's code, and
    // the hint only counts at the top of a file.
    async writeBundle(options, bundle) {
      const entries = Object.values(bundle).filter((file) => file.type === 'chunk' && file.isEntry);
      const initial = new Set(
        entries.flatMap((entry) => [entry.fileName, ...(entry.type === 'chunk' ? entry.imports : [])]),
      );
      for (const fileName of initial) {
        const file = join(options.dir ?? '', fileName);
        await writeFile(file, EAGER_COMPILE_HINT + (await readFile(file, 'utf8')));
      }
    },
  };
}
