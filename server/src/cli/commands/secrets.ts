// `npm run cli -- secrets set NAME | list | delete NAME`: with a live server on DATA_DIR through its admin
// API (PGlite admits one process, and the server then tells every instance), else by the same secrets
// service on the database itself (with DATABASE_URL the shared PostgreSQL: running servers elsewhere pick
// the change up at their start).
import { z } from 'zod';
import { adminPath, callAdminApi } from '../admin-client';
import type { SecretsAction } from '../arguments';
import { viaOf, type CliContext } from '../cli-context';
import { CLI_ACTOR, withOfflineServices } from '../offline-services';
import { readSecretValue } from '../secret-input';

/** SecretsCommandResult is what the CLI prints: names and outcomes, never a value. */
export type SecretsCommandResult =
  | { names: string[]; via: string }
  | { name: string; set: true; via: string }
  | { name: string; deleted: true; via: string };

const NamesAnswerSchema = z.object({ names: z.array(z.string()) });
const SetAnswerSchema = z.object({ set: z.literal(true) });
const DeletedAnswerSchema = z.object({ deleted: z.literal(true) });

async function listSecrets(context: CliContext): Promise<string[]> {
  const appId = context.config.APP_ID;
  if (context.server) {
    const path = adminPath(appId, 'secrets');
    return (await callAdminApi(context.server, { method: 'GET', path }, NamesAnswerSchema)).names;
  }
  return withOfflineServices(context, (offline) => offline.secrets().names(appId));
}

async function setSecret(context: CliContext, name: string, value: string): Promise<void> {
  const appId = context.config.APP_ID;
  if (context.server) {
    const path = adminPath(appId, 'secrets', name);
    await callAdminApi(context.server, { method: 'PUT', path, body: { value } }, SetAnswerSchema);
    return;
  }
  await withOfflineServices(context, async (offline) => {
    await offline.ensureApp();
    // The key must open what is already there: two keys in one table would be a silent split.
    await offline.secrets().verifyKey(appId);
    await (await offline.changes()).setSecret(appId, CLI_ACTOR, name, value);
  });
}

async function deleteSecret(context: CliContext, name: string): Promise<void> {
  const appId = context.config.APP_ID;
  if (context.server) {
    const path = adminPath(appId, 'secrets', name);
    await callAdminApi(context.server, { method: 'DELETE', path }, DeletedAnswerSchema);
    return;
  }
  await withOfflineServices(context, async (offline) =>
    (await offline.changes()).deleteSecret(appId, CLI_ACTOR, name),
  );
}

/** secretsCommand runs a secrets action; the value to set is read from stdin, else a hidden prompt. */
export async function secretsCommand(
  context: CliContext,
  action: SecretsAction,
): Promise<SecretsCommandResult> {
  const via = viaOf(context);
  if (action.action === 'list') return { names: await listSecrets(context), via };
  if (action.action === 'set') {
    await setSecret(context, action.secret, await readSecretValue(action.secret));
    return { name: action.secret, set: true, via };
  }
  await deleteSecret(context, action.secret);
  return { name: action.secret, deleted: true, via };
}
