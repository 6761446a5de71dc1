// `npm run cli -- set-role | disable-user | enable-user --email E …`: one change of a user, through the live
// server's `PATCH admin/users`, else by the same users service on the database.
import { adminPath, AnswerObjectSchema, callAdminApi } from '../admin-client';
import type { AdminUpdateUser } from '../arguments';
import { viaOf, type CliContext, type CommandReport } from '../cli-context';
import { CLI_ACTOR, withOfflineServices } from '../offline-services';

/** updateUserCommand applies change (role, disabled) to the user it names by email and reports the user. */
export async function updateUserCommand(
  context: CliContext,
  change: AdminUpdateUser,
): Promise<CommandReport> {
  const appId = context.config.APP_ID;
  const { email, ...changes } = change;
  const result = context.server
    ? await callAdminApi(
        context.server,
        { method: 'PATCH', path: adminPath(appId, 'users'), body: change },
        AnswerObjectSchema,
      )
    : await withOfflineServices(context, async (offline) =>
        (await offline.changes()).updateUser(appId, CLI_ACTOR, email, changes),
      );
  return { ok: true, via: viaOf(context), result };
}
