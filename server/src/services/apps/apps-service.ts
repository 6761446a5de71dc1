import { ForbiddenError, NotFoundError } from '../../lib/errors';
import type { AppsStore } from '../../store/apps-store';

/** PublicSettings is what the SDK's `app.getPublicSettings()` returns. */
export interface PublicSettings {
  id: string;
  public_settings: string;
}

/** Visibility is who may open the app. */
export type Visibility = 'public_without_login' | 'public_with_login' | 'private_with_login';

/** Standing is what an app's visibility asks of a principal (services/identity/app-access.ts derives it). */
export type Standing = 'anonymous' | 'unapproved' | 'approved' | 'service';

/** AccessSettings are an app's visibility and whether visitors may sign themselves up. */
export interface AccessSettings {
  visibility: string;
  selfSignup: boolean;
}

/** SettingsChange is an operator's change of an app's visibility and/or self-sign-up flag. */
export interface SettingsChange {
  visibility?: Visibility | undefined;
  selfSignup?: boolean | undefined;
}

/** AppSettings are an app's settings after a change. */
export interface AppSettings {
  id: string;
  public_settings: string;
  self_signup: boolean;
}

/** AppsService is the rules for apps: which exist and who may open them. */
export interface AppsService {
  /** ensureApp creates the app with default settings if it does not exist yet. */
  ensureApp(appId: string): Promise<void>;
  /** requireApp throws NotFoundError unless the app exists. */
  requireApp(appId: string): Promise<void>;
  /** findPublicSettings returns the app's public settings; it throws NotFoundError for an unknown app. */
  findPublicSettings(appId: string): Promise<PublicSettings>;
  /** findAccessSettings returns the visibility and whether visitors may sign themselves up. */
  findAccessSettings(appId: string): Promise<AccessSettings>;
  /** publicSettingsFor answers public settings for a visitor, as far as the app's visibility admits them. */
  publicSettingsFor(appId: string, standing: Standing): Promise<PublicSettings>;
  /** updateSettings changes the app's visibility and/or self-sign-up flag. */
  updateSettings(appId: string, settings: SettingsChange): Promise<AppSettings>;
}

/** APP_CACHE_MS bounds how long a settings change made by another instance can go unseen. */
const APP_CACHE_MS = 2000;

/** createAppsService returns the rules for apps: which exist and who may open them. */
export function createAppsService(store: AppsStore, now: () => number = Date.now): AppsService {
  // Every API request checks its app; apps change rarely, so known rows are kept briefly in memory
  // (unknown ids are not cached: they are caller-chosen).
  type AppRow = NonNullable<Awaited<ReturnType<AppsStore['findById']>>>;
  const cache = new Map<string, { row: AppRow; expires: number }>();

  async function requireRow(appId: string): Promise<AppRow> {
    const cached = cache.get(appId);
    if (cached && cached.expires > now()) return cached.row;
    const app = await store.findById(appId);
    if (!app) throw new NotFoundError(`App "${appId}" was not found`);
    cache.set(appId, { row: app, expires: now() + APP_CACHE_MS });
    return app;
  }

  return {
    /** ensureApp creates the app with default settings if it does not exist yet. */
    ensureApp: (appId: string) => {
      cache.delete(appId);
      return store.ensure(appId);
    },
    /** requireApp throws NotFoundError unless the app exists. */
    async requireApp(appId: string): Promise<void> {
      await requireRow(appId);
    },
    /** findPublicSettings returns the app's public settings; it throws NotFoundError for an unknown app. */
    async findPublicSettings(appId: string): Promise<PublicSettings> {
      const app = await requireRow(appId);
      return { id: app.id, public_settings: app.public_settings };
    },
    /** findAccessSettings returns the visibility and whether visitors may sign themselves up. */
    async findAccessSettings(appId: string): Promise<{ visibility: string; selfSignup: boolean }> {
      const app = await requireRow(appId);
      return { visibility: app.public_settings, selfSignup: app.self_signup };
    },
    /**
     * publicSettingsFor answers public settings for a visitor: an open app answers everyone; a
     * `public_with_login` app answers anonymous visitors but refuses signed-in users it does not know;
     * a `private_with_login` app answers only approved users (403 auth_required / user_not_registered).
     */
    async publicSettingsFor(appId: string, standing: Standing): Promise<PublicSettings> {
      const app = await requireRow(appId);
      const settings = { id: app.id, public_settings: app.public_settings };
      if (app.public_settings === 'public_without_login' || standing === 'approved' || standing === 'service')
        return settings;
      if (standing === 'unapproved') {
        throw new ForbiddenError(
          'You are not registered for this app: ask an admin for access',
          'user_not_registered',
        );
      }
      if (app.public_settings === 'public_with_login') return settings;
      throw new ForbiddenError('Sign in to open this app', 'auth_required');
    },
    /** updateSettings changes the app's visibility and/or self-sign-up flag. */
    async updateSettings(
      appId: string,
      settings: { visibility?: Visibility | undefined; selfSignup?: boolean | undefined },
    ): Promise<{ id: string; public_settings: string; self_signup: boolean }> {
      await requireRow(appId);
      await store.updateSettings(appId, {
        publicSettings: settings.visibility,
        selfSignup: settings.selfSignup,
      });
      cache.delete(appId);
      const app = await requireRow(appId);
      return { id: app.id, public_settings: app.public_settings, self_signup: app.self_signup };
    },
  };
}
