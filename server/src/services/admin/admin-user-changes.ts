// The console's changes to one user (invite, role, disabled, custom fields, a mailed password reset). Each
// goes through the service that already owns it, so the same validation, realtime events and mails apply,
// and each is written to the audit log with who made it, before and after (never a password or a link).
import { ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import type { AdminUserChange } from '../../schemas/admin-users';
import type { UserRow, UsersStore } from '../../store/users-store';
import type { AuditActor, AuditLog } from '../audit/audit-log';
import type { SignInService } from '../auth/sign-in-service';
import type { InviteInput, Invited, UsersService } from '../auth/users-service';
import { ADMIN_ROLE } from '../users/app-roles';
import { toPublicUser, type PublicUser } from '../users/public-user';
import type { UserWrites } from '../users/user-writes';

/** AdminUserChangesDeps are the users (read, counted, written through their owners) and the log. */
export interface AdminUserChangesDeps {
  users: Pick<UsersStore, 'findById' | 'findByEmail' | 'countAdmins'>;
  writes: Pick<UserWrites, 'update'>;
  access: Pick<UsersService, 'invite' | 'updateByEmail'>;
  signIn: Pick<SignInService, 'mailAdminReset'>;
  audit: Pick<AuditLog, 'record'>;
}

/** Operator is who asks: as the rules see them (the admin user, or the service role) and as audited. */
export interface Operator {
  caller: Caller;
  actor: AuditActor;
}

/** AdminUserChanges are the console's audited changes to one user. */
export interface AdminUserChanges {
  change(appId: string, by: Operator, id: string, change: AdminUserChange): Promise<PublicUser>;
  invite(appId: string, by: Operator, input: InviteInput, origin: string): Promise<Invited>;
  mailReset(
    appId: string,
    by: Operator,
    id: string,
    origin: string,
  ): Promise<{ success: true; email: string }>;
}

/** snapshot is what the audit log keeps of a user: role, status and the profile fields a change touched. */
function snapshot(row: UserRow, keys: string[]) {
  const profile: Record<string, unknown> = { full_name: row.full_name, ...row.custom };
  const data = Object.fromEntries(keys.map((key) => [key, profile[key] ?? null]));
  return { role: row.role, disabled: row.disabled, ...(keys.length > 0 ? { data } : {}) };
}

/** createAdminUserChanges returns the console's audited user changes. */
export function createAdminUserChanges(deps: AdminUserChangesDeps): AdminUserChanges {
  async function requireUser(appId: string, id: string): Promise<UserRow> {
    const user = await deps.users.findById(appId, id);
    if (!user) throw new NotFoundError(`User "${id}" was not found`);
    return user;
  }

  /**
   * refuseLockOut keeps the app runnable: an admin never disables themself, and the app's last enabled
   * admin is neither disabled nor demoted (the user writes refuse the demotion too; this also counts who
   * can still sign in, and covers disabling).
   */
  async function refuseLockOut(appId: string, by: Operator, target: UserRow, change: AdminUserChange) {
    const disabling = change.disabled === true && !target.disabled;
    const demoting = change.role !== undefined && change.role !== ADMIN_ROLE;
    if (disabling && by.caller.kind === 'user' && by.caller.user.id === target.id) {
      throw new ForbiddenError('You cannot disable yourself: another admin must do it');
    }
    if (target.role !== ADMIN_ROLE || target.disabled || !(disabling || demoting)) return;
    // The target is an enabled admin here, so it is among those counted: the one count the user writes use.
    if ((await deps.users.countAdmins(appId)) <= 1) {
      throw new ConflictError(
        `${target.email} is the app's only active admin and cannot be ${disabling ? 'disabled' : 'demoted'}: make another user admin first`,
      );
    }
  }

  return {
    async change(appId, by, id, change) {
      const before = await requireUser(appId, id);
      await refuseLockOut(appId, by, before, change);
      if (change.role !== undefined || change.data) {
        // The same write as the User entity's update: User.jsonc's validation and field rules, roles checked.
        const role = change.role === undefined ? {} : { role: change.role };
        await deps.writes.update(appId, by.caller, id, { ...change.data, ...role });
      }
      if (change.disabled !== undefined) {
        await deps.access.updateByEmail(appId, before.email, {
          disabled: change.disabled,
          keepAnAdmin: true,
        });
      }
      const after = await requireUser(appId, id);
      const keys = Object.keys(change.data ?? {});
      await deps.audit.record(appId, by.actor, {
        action: 'user.update',
        target: `user:${after.email}`,
        before: snapshot(before, keys),
        after: snapshot(after, keys),
      });
      return toPublicUser(after);
    },

    async invite(appId, by, input, origin) {
      const before = await deps.users.findByEmail(appId, input.user_email);
      // Inviting an existing user sets their role: the last admin stays one.
      if (before) await refuseLockOut(appId, by, before, { role: input.role });
      const invited = await deps.access.invite(appId, input, origin);
      await deps.audit.record(appId, by.actor, {
        action: 'user.invite',
        target: `user:${invited.user_email}`,
        before: before && { role: before.role, disabled: before.disabled },
        after: { role: invited.role, invitation_mailed: true },
      });
      return invited;
    },

    async mailReset(appId, by, id, origin) {
      const target = await requireUser(appId, id);
      await deps.signIn.mailAdminReset(target, origin);
      // That a link was mailed, never the link.
      await deps.audit.record(appId, by.actor, {
        action: 'user.password_reset',
        target: `user:${target.email}`,
        after: { reset_mailed: true },
      });
      return { success: true, email: target.email };
    },
  };
}
