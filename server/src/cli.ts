// Operator CLI: create users, set roles, disable users, change app settings, print the service token.
// With a live server on the same DATA_DIR it goes through the server's admin API (PGlite must never be
// opened by two processes); otherwise it opens the database itself.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import type { ServerConfig } from './config/server-env';
import { readRuntimeInfo } from './lib/runtime-file';
import { loadSecrets, type ServerSecrets } from './lib/secrets-file';
import { formatIssues } from './lib/validation';
import { buildAccountsPart, openPlatformDatabase } from './platform/platform';
import { entitiesInferCommand } from './cli/commands/entities-infer';
import { pruneFilesCommand } from './cli/commands/files-prune';
import { functionsInstallCommand } from './cli/commands/functions-install';
import { logsCommand } from './cli/commands/logs';
import { secretsCommand } from './cli/commands/secrets';
import { loadSettings } from './platform/settings';
import { loadProject, projectDirFrom, type EntityDef } from './project/project-loader';
import { USER_ENTITY } from './project/user-entity';
import { AdminCreateUserSchema, AdminUpdateUserSchema, AppSettingsSchema } from './schemas/auth';

const REPO_ROOT = resolve(import.meta.dirname, '../..');

const USAGE = `Usage: npm run cli -- <command> [options]
  create-user --email <e> --password <p> [--role <role>] [--name <full name>]
  set-role --email <e> --role <role>
    (roles: admin, and those the project's User.jsonc declares, else user; the default is the declared one)
  disable-user --email <e>
  enable-user --email <e>
  app-settings [--visibility public_without_login|public_with_login|private_with_login] [--self-signup on|off]
  service-token
  migrate                 create or upgrade the database (DATA_DIR's PGlite, or DATABASE_URL) and exit
  files prune [--dry-run] [--min-age-hours <h>]   remove uploaded files no record references (default age 24 h)
  secrets set <NAME>      the value is read from stdin when piped, else typed at a hidden prompt
  secrets list            names only (values are never shown)
  secrets delete <NAME>
  functions install       fetch every function's npm: packages into the functions' Deno cache (a deploy step)
  logs [--function <name>] [--limit <n>] [--follow]
                          backend function calls (status, duration, output), oldest first; --follow polls
                          for new ones until Ctrl-C
  entities infer [--app <path>] [--dry-run]
                          read the app's src/ and base44/functions/ code and write base44/entities/<Name>.jsonc
                          for each entity it uses that has no schema (never overwrites one); the fields are
                          guessed and the rules admit signed-in users only: check and edit them
  --app <path>            a hosted app's repository (its base44/ folder), as npm start -- --app takes
                          (entities infer: the current directory by default)
Reads DATA_DIR, APP_ID, PROJECT_DIR, SERVICE_TOKEN, JWT_SECRET and SECRETS_KEY like the server; with a server
running on DATA_DIR, commands act on the app that server hosts.`;

/** AdminRequest is one operator action as the admin API spells it. */
interface AdminRequest {
  method: 'POST' | 'PATCH' | 'PUT';
  path: 'users' | 'settings';
  body: Record<string, unknown>;
}

function toRequest(command: string, values: Record<string, string | undefined>): AdminRequest {
  const pick = (schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, body: object) => {
    const result = schema.safeParse(body);
    if (!result.success) throw new Error(formatIssues(result.error as Parameters<typeof formatIssues>[0]));
    return body as Record<string, unknown>;
  };
  switch (command) {
    case 'create-user':
      return {
        method: 'POST',
        path: 'users',
        body: pick(AdminCreateUserSchema, {
          email: values.email,
          password: values.password,
          ...(values.role ? { role: values.role } : {}),
          ...(values.name ? { full_name: values.name } : {}),
        }),
      };
    case 'set-role':
      return {
        method: 'PATCH',
        path: 'users',
        body: pick(AdminUpdateUserSchema, { email: values.email, role: values.role }),
      };
    case 'disable-user':
    case 'enable-user':
      return {
        method: 'PATCH',
        path: 'users',
        body: pick(AdminUpdateUserSchema, { email: values.email, disabled: command === 'disable-user' }),
      };
    case 'app-settings': {
      const signup = values['self-signup'];
      if (signup !== undefined && signup !== 'on' && signup !== 'off')
        throw new Error('--self-signup must be on or off');
      const body = {
        ...(values.visibility ? { visibility: values.visibility } : {}),
        ...(signup ? { self_signup: signup === 'on' } : {}),
      };
      return { method: 'PUT', path: 'settings', body: pick(AppSettingsSchema, body) };
    }
    default:
      throw new Error(`Unknown command "${command}".\n${USAGE}`);
  }
}

/** LiveServer is a server answering on this DATA_DIR: where, and which app it hosts. */
interface LiveServer {
  url: string;
  appId: string;
}

async function liveServerOn(dataDir: string): Promise<LiveServer | null> {
  const info = await readRuntimeInfo(dataDir);
  if (!info) return null;
  try {
    process.kill(info.pid, 0);
  } catch {
    return null;
  }
  const health = await fetch(`${info.url}/healthz`, { signal: AbortSignal.timeout(3000) }).catch(() => null);
  return health?.ok ? { url: info.url, appId: info.appId } : null;
}

async function viaServer(url: string, appId: string, serviceToken: string, request: AdminRequest) {
  const response = await fetch(`${url}/api/apps/${encodeURIComponent(appId)}/admin/${request.path}`, {
    method: request.method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${serviceToken}` },
    body: JSON.stringify(request.body),
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

async function direct(
  config: ServerConfig,
  secrets: ServerSecrets,
  userEntity: EntityDef | undefined,
  request: AdminRequest,
) {
  // With DATABASE_URL this is the shared PostgreSQL, which any number of processes may open.
  const { db } = await openPlatformDatabase(config);
  try {
    const { apps, accounts } = await buildAccountsPart({
      config,
      db,
      secrets,
      log: pino({ level: 'warn' }),
      // The project's User entity: its declared roles and default, as the server has them.
      userEntity,
    });
    if (request.path === 'settings') {
      const input = AppSettingsSchema.parse(request.body);
      return await apps.updateSettings(config.APP_ID, {
        visibility: input.visibility,
        selfSignup: input.self_signup,
      });
    }
    if (request.method === 'POST')
      return await accounts.users.createUser(config.APP_ID, AdminCreateUserSchema.parse(request.body));
    const { email, ...changes } = AdminUpdateUserSchema.parse(request.body);
    return await accounts.users.updateByEmail(config.APP_ID, email, changes);
  } finally {
    await db.close();
  }
}

/**
 * migrateCommand creates or upgrades the database and closes it: a deploy step (the first start then skips
 * it), and how the e2e harness makes the migrated PGlite folder that its servers start from.
 */
async function migrateCommand(config: ServerConfig, liveServer: string | null) {
  // A running server migrated its database when it started (and PGlite takes one process at a time).
  if (liveServer) return { ok: true, applied: [], via: `server at ${liveServer}` };
  const { db, label, applied } = await openPlatformDatabase(config);
  await db.close();
  return { ok: true, database: label, applied };
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      visibility: { type: 'string' },
      'self-signup': { type: 'string' },
      'dry-run': { type: 'boolean' },
      'min-age-hours': { type: 'string' },
      app: { type: 'string' },
      function: { type: 'string' },
      limit: { type: 'string' },
      follow: { type: 'boolean' },
    },
  });
  const command = positionals[0];
  if (!command || command === 'help') {
    console.log(USAGE);
    return;
  }
  if (command === 'entities') {
    // Before the project is loaded: the app's entity files are what this command completes. npm runs the CLI
    // from the repository root; INIT_CWD is where the operator typed the command.
    const appDir = resolve(process.env.INIT_CWD ?? process.cwd(), values.app ?? '.');
    const dryRun = values['dry-run'] === true;
    await entitiesInferCommand({
      action: positionals[1],
      appDir,
      dryRun,
      print: (text) => console.log(text),
    });
    return;
  }
  // `--app PATH` names a hosted app's repository, as `npm start -- --app PATH` does: its `base44/` folder.
  const env = values.app ? { ...process.env, PROJECT_DIR: join(resolve(values.app), 'base44') } : process.env;
  // The app id follows the server's choice: APP_ID, else the project's `.app.jsonc`, else the site config.
  const project = await loadProject(projectDirFrom(env, REPO_ROOT));
  const settings = loadSettings(env, REPO_ROOT, project.appId).config;
  // A server running on this DATA_DIR hosts one app: commands act on that app, whatever this shell's
  // PROJECT_DIR says (the server started with `--app` in another terminal, this one without it).
  const live = await liveServerOn(settings.DATA_DIR);
  const config: ServerConfig = live ? { ...settings, APP_ID: live.appId } : settings;
  if (command === 'migrate') {
    console.log(JSON.stringify(await migrateCommand(config, live?.url ?? null), null, 2));
    return;
  }
  const secrets = await loadSecrets(config.DATA_DIR, {
    jwtSecret: config.JWT_SECRET,
    serviceToken: config.SERVICE_TOKEN,
    secretsKey: config.SECRETS_KEY,
  });
  if (command === 'service-token') {
    // The one place a secret is printed on purpose: stdout only, for the operator to copy.
    console.log(secrets.serviceToken);
    return;
  }
  if (command === 'files') {
    const report = await pruneFilesCommand(config, positionals[1], values, live?.url ?? null);
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  if (command === 'functions') {
    const report = await functionsInstallCommand(config, project, positionals[1]);
    console.log(JSON.stringify(report, null, 2));
    if (Object.keys(report.failed).length > 0) process.exitCode = 1;
    return;
  }
  if (command === 'logs') {
    await logsCommand({
      config,
      secrets,
      liveServer: live?.url ?? null,
      values,
      print: (text) => console.log(text),
    });
    return;
  }
  if (command === 'secrets') {
    const liveServer = live?.url ?? null;
    const [, action, name] = positionals;
    console.log(JSON.stringify(await secretsCommand({ config, secrets, action, name, liveServer }), null, 2));
    return;
  }
  const { 'dry-run': _dryRun, app: _app, follow: _follow, ...text } = values;
  const request = toRequest(command, text);
  const url = live?.url;
  const result = url
    ? await viaServer(url, config.APP_ID, secrets.serviceToken, request)
    : await direct(config, secrets, project.entities.get(USER_ENTITY), request);
  console.log(JSON.stringify({ ok: true, via: url ? `server at ${url}` : 'database', result }, null, 2));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
