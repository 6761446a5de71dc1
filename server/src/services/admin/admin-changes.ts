// The operator's changes (users, app settings, secrets), each made through the service that owns it and
// written to the audit log with who made it and what it was before: the one path the admin API, the CLI
// without a server, and the console take, so none of them can change the app unrecorded.
import type { AuditActor, AuditLog } from '../audit/audit-log';
import type { AppsService, SettingsChange } from '../apps/apps-service';
import type { UsersService } from '../auth/users-service';
import type { SecretsService } from '../secrets/secrets-service';
import type { PublicUser } from '../users/public-user';

/** AdminChangesDeps are the owning services, a way to read a user before a change, and the audit log. */
export interface AdminChangesDeps {
  users: Pick<UsersService, 'createUser' | 'updateByEmail'>;
  findUser(appId: string, email: string): Promise<{ role: string; disabled: boolean } | null>;
  apps: Pick<AppsService, 'findAccessSettings' | 'updateSettings'>;
  secrets: Pick<SecretsService, 'names' | 'set' | 'delete'>;
  audit: AuditLog;
}

type CreateUserInput = Parameters<UsersService['createUser']>[1];
type UserChanges = Parameters<UsersService['updateByEmail']>[2];

/** AdminChanges are the operator's changes, each audited. */
export interface AdminChanges {
  createUser(appId: string, actor: AuditActor, input: CreateUserInput): Promise<PublicUser>;
  updateUser(appId: string, actor: AuditActor, email: string, changes: UserChanges): Promise<PublicUser>;
  updateSettings(
    appId: string,
    actor: AuditActor,
    change: SettingsChange,
  ): ReturnType<AppsService['updateSettings']>;
  setSecret(appId: string, actor: AuditActor, name: string, value: string): Promise<void>;
  deleteSecret(appId: string, actor: AuditActor, name: string): Promise<void>;
}

/** createAdminChanges returns the audited operator changes. */
export function createAdminChanges(deps: AdminChangesDeps): AdminChanges {
  return {
    async createUser(appId, actor, input) {
      const user = await deps.users.createUser(appId, input);
      await deps.audit.record(appId, actor, {
        action: 'user.create',
        target: `user:${user.email}`,
        after: { email: user.email, role: user.role, full_name: user.full_name },
      });
      return user;
    },
    async updateUser(appId, actor, email, changes) {
      const before = await deps.findUser(appId, email);
      const user = await deps.users.updateByEmail(appId, email, changes);
      await deps.audit.record(appId, actor, {
        action: 'user.update',
        target: `user:${user.email}`,
        before: before && { role: before.role, disabled: before.disabled },
        after: { role: user.role, disabled: user.disabled },
      });
      return user;
    },
    async updateSettings(appId, actor, change) {
      const before = await deps.apps.findAccessSettings(appId);
      const after = await deps.apps.updateSettings(appId, change);
      await deps.audit.record(appId, actor, {
        action: 'app.settings',
        target: `app:${appId}`,
        before: { visibility: before.visibility, self_signup: before.selfSignup },
        after: { ...after },
      });
      return after;
    },
    async setSecret(appId, actor, name, value) {
      const existed = (await deps.secrets.names(appId)).includes(name);
      await deps.secrets.set(appId, name, value);
      // The name and that it is set: never the value.
      await deps.audit.record(appId, actor, {
        action: existed ? 'secret.replace' : 'secret.set',
        target: `secret:${name}`,
        before: { set: existed },
        after: { set: true },
      });
    },
    async deleteSecret(appId, actor, name) {
      await deps.secrets.delete(appId, name);
      await deps.audit.record(appId, actor, {
        action: 'secret.delete',
        target: `secret:${name}`,
        before: { set: true },
        after: { set: false },
      });
    },
  };
}
