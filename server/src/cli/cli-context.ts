// What the commands act on: the app (its configuration and project), a server running on its DATA_DIR (then
// commands go through that server's API), the server secrets, and where a report is printed.
import { join, resolve } from 'node:path';
import type { ServerConfig } from '../config/server-env';
import { loadSecrets, type ServerSecrets } from '../lib/secrets-file';
import { loadSettings } from '../platform/settings';
import { loadProject, projectDirFrom, type Project } from '../project/project-loader';
import type { AdminServer } from './admin-client';
import { liveServerOn, type LiveServer } from './live-server';

/** CliTarget is the app a command acts on and the server running on its DATA_DIR, if any. */
export interface CliTarget {
  /** config is the server's configuration; with a live server, APP_ID is the app that server hosts. */
  config: ServerConfig;
  project: Project;
  live: LiveServer | null;
}

/** CliContext is a target with the server secrets loaded. */
export interface CliContext {
  config: ServerConfig;
  project: Project;
  secrets: ServerSecrets;
  /** server is the live server's API with the service token; null: commands open the database. */
  server: AdminServer | null;
  print: (text: string) => void;
}

/** CommandReport is what a command that changes the app prints: where it went, and the answer. */
export interface CommandReport {
  ok: true;
  via: string;
  result: unknown;
}

/**
 * findTarget settles the app as the server does: `--app PATH` names a hosted app's repository (its
 * `base44/` folder) as `npm start -- --app PATH` does; the app id is APP_ID, else the project's
 * `.app.jsonc`, else the site config.
 */
export async function findTarget(
  app: string | undefined,
  env: NodeJS.ProcessEnv,
  repoRoot: string,
): Promise<CliTarget> {
  const appEnv = app ? { ...env, PROJECT_DIR: join(resolve(app), 'base44') } : env;
  const project = await loadProject(projectDirFrom(appEnv, repoRoot));
  const settings = loadSettings(appEnv, repoRoot, project.appId).config;
  // A server running on this DATA_DIR hosts one app: commands act on that app, whatever this shell's
  // PROJECT_DIR says (the server started with `--app` in another terminal, this one without it).
  const live = await liveServerOn(settings.DATA_DIR);
  return { config: live ? { ...settings, APP_ID: live.appId } : settings, project, live };
}

/** contextOf loads the server secrets (the service token, the secrets key) for target. */
export async function contextOf(target: CliTarget, print: (text: string) => void): Promise<CliContext> {
  const { config, project, live } = target;
  const secrets = await loadSecrets(config.DATA_DIR, {
    jwtSecret: config.JWT_SECRET,
    serviceToken: config.SERVICE_TOKEN,
    secretsKey: config.SECRETS_KEY,
  });
  const server = live ? { url: live.url, serviceToken: secrets.serviceToken } : null;
  return { config, project, secrets, server, print };
}

/** viaOf names the way a command went, as its report says: the server's URL, or the database. */
export function viaOf(context: Pick<CliContext, 'server'>): string {
  return context.server ? `server at ${context.server.url}` : 'database';
}
