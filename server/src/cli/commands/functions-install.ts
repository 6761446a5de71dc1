// `npm run cli -- functions install`: fetch every function's `npm:` packages into the functions' Deno cache
// ahead of time (a deploy step), so the server starts them offline with no registry at all.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { probeDeno } from '../../services/functions/deno-binary';
import { loadFunctions } from '../../services/functions/function-discovery';
import { cachePackages } from '../../services/functions/package-cache';
import { writeRuntimeFiles } from '../../services/functions/runtime-files';
import { shippedSdkVersion } from '../../platform/parts/functions';
import type { CliContext } from '../cli-context';

/** InstallReport is what `functions install` did: where, which functions were cached, which failed and why. */
export interface InstallReport {
  denoDir: string;
  cached: string[];
  failed: Record<string, string>;
}

/** functionsInstallCommand caches every function's packages; each one that fails is named in the report. */
export async function functionsInstallCommand(
  context: Pick<CliContext, 'config' | 'project'>,
): Promise<InstallReport> {
  const { config, project } = context;
  const deno = await probeDeno(config.DENO_PATH);
  if (!deno.ok) throw new Error(`functions runtime unavailable: ${deno.problem}`);
  const functionsDir = join(project.dir, 'functions');
  const functions = await loadFunctions(functionsDir, (file) => relative(process.cwd(), file) || file);
  const denoDir = config.FUNCTIONS_DENO_DIR ?? join(config.DATA_DIR, 'deno');
  const scratch = await mkdtemp(join(tmpdir(), 'b44fn-install-'));
  const report: InstallReport = { denoDir, cached: [], failed: {} };
  try {
    const files = await writeRuntimeFiles({
      dir: scratch,
      codeDirs: [functionsDir, join(project.dir, 'shared')],
      sdkVersion: shippedSdkVersion(),
    });
    for (const def of functions.values()) {
      const problem = await cachePackages({
        denoPath: deno.runtime.path,
        denoDir,
        importMap: files.importMap,
        wrapper: await files.wrapperFor(def.name, def.entry),
      });
      if (problem) report.failed[def.name] = problem.slice(0, 2000);
      else report.cached.push(def.name);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return report;
}
