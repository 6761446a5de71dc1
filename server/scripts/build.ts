// Bundles the server and the operator CLI (and the site config loader they import) into dist/main.js and
// dist/cli.js, and the worker threads beside them (the embedded database's dist/pglite-worker.js, the JSON
// schema checker's dist/schema-worker.js and the document reader's dist/document-worker.js, found through
// import.meta.url); npm packages stay external. Code they share, and what the server imports only when a
// setting asks for it (S3 storage, Redis, entity inference), goes into chunks beside them (in dist/ itself,
// so import.meta.url's worker and package paths hold in every chunk): a start loads only what it uses.
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const serverRoot = resolve(import.meta.dirname, '..');
const outfile = resolve(serverRoot, 'dist/main.js');

await rm(resolve(serverRoot, 'dist'), { recursive: true, force: true });
const result = await build({
  entryPoints: {
    main: resolve(serverRoot, 'src/main.ts'),
    cli: resolve(serverRoot, 'src/cli.ts'),
    'pglite-worker': resolve(serverRoot, 'src/store/pglite-worker.ts'),
    'schema-worker': resolve(serverRoot, 'src/services/llm/schema-worker.ts'),
    'document-worker': resolve(serverRoot, 'src/services/extraction/document-worker-main.ts'),
  },
  outdir: resolve(serverRoot, 'dist'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  splitting: true,
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  metafile: true,
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(
  `built ${outfile}, dist/cli.js, dist/pglite-worker.js, dist/schema-worker.js and dist/document-worker.js (${Math.round(bytes / 1024)} KB with source map)`,
);
