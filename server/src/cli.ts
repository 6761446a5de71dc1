// The operator CLI's entry point, bundled into dist/cli.js (`npm run cli -- …`): runs cli/ on this process's
// arguments and exits 1 with the message of whatever failed.
import { resolve } from 'node:path';
import { runCli } from './cli/run-cli';

// Two folders up from src/cli.ts (tsx) and from dist/cli.js (the bundle) alike: the repository root.
const REPO_ROOT = resolve(import.meta.dirname, '../..');

runCli(process.argv.slice(2), {
  repoRoot: REPO_ROOT,
  env: process.env,
  // npm runs the CLI from the repository root; INIT_CWD is where the operator typed the command.
  cwd: process.env.INIT_CWD ?? process.cwd(),
  print: (text) => console.log(text),
}).then(
  (exitCode) => {
    process.exitCode = exitCode;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
