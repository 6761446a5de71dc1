// `npm run cli -- create-user --email E --password P [--role R] [--name N]`: a verified, approved user, made
// through the live server's `POST admin/users`, else by the same users service on the database.
import { adminPath, AnswerObjectSchema, callAdminApi } from '../admin-client';
import type { AdminCreateUser } from '../arguments';
import { viaOf, type CliContext, type CommandReport } from '../cli-context';
import { CLI_ACTOR, withOfflineServices } from '../offline-services';

/** createUserCommand creates user in the app and reports the new user. */
export async function createUserCommand(context: CliContext, user: AdminCreateUser): Promise<CommandReport> {
  const appId = context.config.APP_ID;
  const result = context.server
    ? await callAdminApi(
        context.server,
        { method: 'POST', path: adminPath(appId, 'users'), body: user },
        AnswerObjectSchema,
      )
    : await withOfflineServices(context, async (offline) =>
        (await offline.changes()).createUser(appId, CLI_ACTOR, user),
      );
  return { ok: true, via: viaOf(context), result };
}
