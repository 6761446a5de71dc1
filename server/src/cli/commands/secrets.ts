// `npm run cli -- secrets set NAME | list | delete NAME`: with a live server on DATA_DIR through its admin
// API (PGlite admits one process, and the server then tells every instance), else on the database itself.
import type { ServerConfig } from '../../config/server-env';
import { readSecretValue } from '../secret-input';
import type { ServerSecrets } from '../../lib/secrets-file';
import { createAppsService } from '../../services/apps/apps-service';
import { secretNameProblem } from '../../services/secrets/secret-names';
import { createAppsStore } from '../../store/apps-store';
import { buildSecretsService, openPlatformDatabase } from '../../platform/platform';

const USAGE = 'Usage: npm run cli -- secrets set <NAME> | secrets list | secrets delete <NAME>';

/** SecretsCommandResult is what the CLI prints: names and outcomes, never a value. */
export type SecretsCommandResult =
  | { names: string[]; via: string }
  | { name: string; set: true; via: string }
  | { name: string; deleted: true; via: string };

async function viaServer(
  url: string,
  config: ServerConfig,
  serviceToken: string,
  method: 'GET' | 'PUT' | 'DELETE',
  name?: string,
  value?: string,
): Promise<Record<string, unknown>> {
  const path = `/api/apps/${encodeURIComponent(config.APP_ID)}/admin/secrets${name ? `/${name}` : ''}`;
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${serviceToken}`,
      ...(value !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(value !== undefined ? { body: JSON.stringify({ value }) } : {}),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.status === 401 || response.status === 403) {
    throw new Error(
      `The server at ${url} refused the service token: if it was started with SERVICE_TOKEN, run the CLI with the same SERVICE_TOKEN (and APP_ID).`,
    );
  }
  if (!response.ok) throw new Error(`${response.status}: ${String(body.message ?? 'request failed')}`);
  return body;
}

/** secretsCommand runs `secrets <action> [name]`; liveServer is the URL of a server on DATA_DIR, if any. */
export async function secretsCommand(input: {
  config: ServerConfig;
  secrets: ServerSecrets;
  action: string | undefined;
  name: string | undefined;
  liveServer: string | null;
}): Promise<SecretsCommandResult> {
  const { config, secrets, action, name, liveServer } = input;
  if (action !== 'list' && action !== 'set' && action !== 'delete') throw new Error(USAGE);
  if (action !== 'list') {
    if (!name) throw new Error(USAGE);
    // Checked before a value is asked for, so a typo does not cost a paste.
    const problem = secretNameProblem(name);
    if (problem) throw new Error(problem);
  }
  const value = action === 'set' && name ? await readSecretValue(name) : undefined;
  if (liveServer) {
    const via = `server at ${liveServer}`;
    const method = action === 'list' ? 'GET' : action === 'set' ? 'PUT' : 'DELETE';
    const body = await viaServer(liveServer, config, secrets.serviceToken, method, name, value);
    if (action === 'list') return { names: (body.names as string[] | undefined) ?? [], via };
    return action === 'set' ? { name: name ?? '', set: true, via } : { name: name ?? '', deleted: true, via };
  }
  // With DATABASE_URL this is the shared PostgreSQL; running servers elsewhere pick the change up at start.
  const { db } = await openPlatformDatabase(config);
  try {
    const service = buildSecretsService(db, secrets);
    const via = 'database';
    if (action === 'list') return { names: await service.names(config.APP_ID), via };
    if (action === 'set' && name && value !== undefined) {
      await createAppsService(createAppsStore(db)).ensureApp(config.APP_ID);
      // The key must open what is already there: two keys in one table would be a silent split.
      await service.verifyKey(config.APP_ID);
      await service.set(config.APP_ID, name, value);
      return { name, set: true, via };
    }
    await service.delete(config.APP_ID, name ?? '');
    return { name: name ?? '', deleted: true, via };
  } finally {
    await db.close();
  }
}
