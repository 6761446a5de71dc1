// Custom integrations of the project: `integrations/<slug>.jsonc`, each naming a base URL, an OpenAPI 3
// document (inline, or a `.json` file beside it) and optionally the header a secret fills. Loaded with the
// project at start; any problem stops the start naming the file and the key.
import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import {
  INTEGRATION_SLUG,
  IntegrationFileSchema,
  OpenApiDocumentSchema,
  type IntegrationFile,
} from '../schemas/custom-integrations';
import { check, jsoncFiles, ProjectError, readJsonc } from './project-files';
import { OpenApiError, operationsOf, type CustomOperation } from './openapi-operations';

/** INTEGRATIONS_DIR is the project folder of custom integrations. */
export const INTEGRATIONS_DIR = 'integrations';
/** MAX_INTEGRATIONS bounds how many files are loaded; MAX_OPENAPI_BYTES one referenced document. */
const MAX_INTEGRATIONS = 100;
const MAX_OPENAPI_BYTES = 5 * 1024 * 1024;
/** DEFAULT_TIMEOUT_MS is an upstream call's deadline when the file names none. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** CustomIntegration is one loaded integration: its file's settings and its operations by id. */
export interface CustomIntegration {
  slug: string;
  /** file is the project file, as problems name it. */
  file: string;
  baseUrl: string;
  auth?: { header: string; secret: string; prefix: string } | undefined;
  timeoutMs: number;
  operations: ReadonlyMap<string, CustomOperation>;
  /** definition is the file as written (unknown keys kept). */
  definition: IntegrationFile;
}

async function documentOf(
  definition: IntegrationFile,
  file: string,
  projectDir: string,
  shown: (path: string) => string,
): Promise<{ document: unknown; where: string }> {
  if (typeof definition.openapi !== 'string') return { document: definition.openapi, where: shown(file) };
  const path = resolve(dirname(file), definition.openapi);
  if (!path.startsWith(resolve(projectDir) + sep)) {
    throw new ProjectError(`${shown(file)}: openapi: "${definition.openapi}" is outside the project folder`);
  }
  const size = await stat(path).then(
    (info) => info.size,
    () => {
      throw new ProjectError(`${shown(file)}: openapi: "${definition.openapi}" cannot be read`);
    },
  );
  if (size > MAX_OPENAPI_BYTES) {
    throw new ProjectError(`${shown(path)}: is larger than ${MAX_OPENAPI_BYTES / 1024 / 1024} MB`);
  }
  return { document: await readJsonc(path, shown(path)), where: shown(path) };
}

/** loadCustomIntegrations reads `<projectDir>/integrations/*.jsonc` (none: an empty map). */
export async function loadCustomIntegrations(
  projectDir: string,
  shown: (path: string) => string = (path) => relative(process.cwd(), path) || path,
): Promise<Map<string, CustomIntegration>> {
  const dir = join(projectDir, INTEGRATIONS_DIR);
  // `.json` files there are OpenAPI documents the integration files point at.
  const names = (await jsoncFiles(dir)).filter((name) => name.endsWith('.jsonc'));
  if (names.length > MAX_INTEGRATIONS) {
    throw new ProjectError(`${shown(dir)}: holds more than ${MAX_INTEGRATIONS} integrations`);
  }
  const integrations = new Map<string, CustomIntegration>();
  for (const name of names) {
    const file = join(dir, name);
    const slug = name.replace(/\.jsonc$/, '');
    if (!INTEGRATION_SLUG.test(slug)) {
      throw new ProjectError(
        `${shown(file)}: the file name is the slug: letters, digits, - and _ (up to 64), starting with a letter or digit`,
      );
    }
    const definition = check(IntegrationFileSchema, await readJsonc(file, shown(file)), shown(file));
    const { document, where } = await documentOf(definition, file, projectDir, shown);
    const openapi = check(OpenApiDocumentSchema, document, `${where} (openapi)`);
    let operations: Map<string, CustomOperation>;
    try {
      operations = operationsOf(openapi);
    } catch (error) {
      if (error instanceof OpenApiError) throw new ProjectError(`${where} (openapi): ${error.message}`);
      throw error;
    }
    integrations.set(slug, {
      slug,
      file: shown(file),
      baseUrl: definition.baseUrl,
      auth: definition.auth && { ...definition.auth, prefix: definition.auth.prefix ?? '' },
      timeoutMs: definition.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      operations,
      definition,
    });
  }
  return integrations;
}
