// What the console's Overview shows: the app, its counts, and how this server runs (never a password or key).
import type { AppsService } from '../apps/apps-service';

const USER_ENTITY = 'User';

/** StartupWarning is one thing start-up warned about, with what the operator should do. */
export interface StartupWarning {
  message: string;
  action: string;
}

/** ServerFacts are how this server runs, settled at start (the platform describes them once). */
export interface ServerFacts {
  database: { engine: 'pglite' | 'postgres'; detail: string };
  realtime: string;
  fileStorage: string;
  llm: { configured: boolean; detail: string };
  mail: { mode: 'smtp' | 'outbox'; detail: string };
  version: string;
  startedAt: number;
  /** signInProviders are the external sign-in providers the app's auth config enables (email is always on). */
  signInProviders: string[];
  /** environment is a curated list of settings read from the environment, each with its variable: no secret. */
  environment: { variable: string; value: string }[];
}

/** AppOverviewDeps are the counts, the app's settings and name, the server's facts and current warnings. */
export interface AppOverviewDeps {
  store: {
    countUsers(appId: string): Promise<number>;
    countRecordsByEntity(appId: string): Promise<Map<string, number>>;
  };
  apps: Pick<AppsService, 'findAccessSettings'>;
  appName: string;
  /** entityNames are the project's entities, so one without records still shows with 0. */
  entityNames: readonly string[];
  facts: ServerFacts;
  warnings(): Promise<StartupWarning[]>;
  now?: () => number;
}

/** AppOverview is the Overview page's answer. */
export type AppOverview = Awaited<ReturnType<ReturnType<typeof createAppOverview>['find']>>;

/** createAppOverview returns the Overview's reader. */
export function createAppOverview(deps: AppOverviewDeps) {
  const now = deps.now ?? Date.now;
  return {
    /** find gathers appId's overview. */
    async find(appId: string) {
      const [access, users, records, warnings] = await Promise.all([
        deps.apps.findAccessSettings(appId),
        deps.store.countUsers(appId),
        deps.store.countRecordsByEntity(appId),
        deps.warnings(),
      ]);
      const names = [...new Set([...deps.entityNames, ...records.keys()])].sort();
      const { startedAt, ...facts } = deps.facts;
      return {
        app: { id: appId, name: deps.appName, visibility: access.visibility, selfSignup: access.selfSignup },
        counts: {
          users,
          // The built-in User entity's records are the accounts (the users table), not entity records.
          entities: names.map((name) => ({
            name,
            records: name === USER_ENTITY ? users : (records.get(name) ?? 0),
          })),
        },
        ...facts,
        uptimeSeconds: Math.max(0, Math.floor((now() - startedAt) / 1000)),
        warnings,
      };
    },
  };
}

export type AppOverviewReader = ReturnType<typeof createAppOverview>;
