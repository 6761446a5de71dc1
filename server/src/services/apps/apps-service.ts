import { NotFoundError } from '../../lib/errors';
import type { AppsStore } from '../../store/apps-store';

/** PublicSettings is what the SDK's `app.getPublicSettings()` returns. */
export interface PublicSettings {
  id: string;
  public_settings: string;
}

/** createAppsService returns the rules for apps: which exist and who may open them. */
export function createAppsService(store: AppsStore) {
  return {
    /** ensureApp creates the app with default settings if it does not exist yet. */
    ensureApp: (appId: string) => store.ensure(appId),
    /** requireApp throws NotFoundError unless the app exists. */
    async requireApp(appId: string): Promise<void> {
      if (!(await store.findById(appId))) throw new NotFoundError(`App "${appId}" was not found`);
    },
    /** findPublicSettings returns the app's public settings; it throws NotFoundError for an unknown app. */
    async findPublicSettings(appId: string): Promise<PublicSettings> {
      const app = await store.findById(appId);
      if (!app) throw new NotFoundError(`App "${appId}" was not found`);
      return { id: app.id, public_settings: app.public_settings };
    },
  };
}

export type AppsService = ReturnType<typeof createAppsService>;
