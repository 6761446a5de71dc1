import { join } from 'node:path';
import { AUTH_ENV } from './auth-helpers';
import { DEFAULT_APP_ID } from './sdk-client';
import { REPO_ROOT } from './server-process';

/** FUNCTIONS_PROJECT is the fixture project of the functions specs (small Deno functions, one per behaviour). */
export const FUNCTIONS_PROJECT = join(REPO_ROOT, 'e2e/fixtures/functions/base44');

/** FUNCTIONS_ENV starts a server on it with small limits (3 s calls, 64 MB heaps, 1 MB bodies). */
export const FUNCTIONS_ENV: Record<string, string> = {
  ...AUTH_ENV,
  APP_ID: DEFAULT_APP_ID,
  PROJECT_DIR: FUNCTIONS_PROJECT,
  FUNCTION_TIMEOUT_S: '3',
  FUNCTION_MEMORY_MB: '64',
  FUNCTION_MAX_BODY_MB: '1',
};
