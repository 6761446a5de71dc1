// `npm run cli -- app-settings [--visibility V] [--self-signup on|off]`: the app's visibility and sign-up,
// through the live server's `PUT admin/settings`, else by the same apps service on the database.
import { adminPath, AnswerObjectSchema, callAdminApi } from '../admin-client';
import type { AppSettings } from '../arguments';
import { viaOf, type CliContext, type CommandReport } from '../cli-context';
import { CLI_ACTOR, withOfflineServices } from '../offline-services';

/** appSettingsCommand changes the settings given and reports them all. */
export async function appSettingsCommand(context: CliContext, settings: AppSettings): Promise<CommandReport> {
  const appId = context.config.APP_ID;
  const result = context.server
    ? await callAdminApi(
        context.server,
        { method: 'PUT', path: adminPath(appId, 'settings'), body: settings },
        AnswerObjectSchema,
      )
    : await withOfflineServices(context, async (offline) =>
        (await offline.changes()).updateSettings(appId, CLI_ACTOR, {
          visibility: settings.visibility,
          selfSignup: settings.self_signup,
        }),
      );
  return { ok: true, via: viaOf(context), result };
}
