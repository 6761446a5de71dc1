import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../../lib/errors';
import type { AdminCreateUserSchema, AdminUpdateUserSchema, InviteUserSchema } from '../../schemas/auth';
import type { UserRow } from '../../store/users-store';
import { defaultFullName, type AccountDeps } from './account-deps';
import type { SignInService } from './sign-in-service';
import type { PublicUser } from '../users/public-user';
import type { UserWrites } from '../users/user-writes';

/** OwnProfileChanges is an updateMe body: full_name, custom fields and a role (refused unless unchanged). */
export interface OwnProfileChanges {
  full_name?: string | undefined;
  role?: string | undefined;
  custom: Record<string, unknown>;
}

/** InviteInput is a validated invite-user body. */
export type InviteInput = z.infer<typeof InviteUserSchema>;

/** Invited is invite's answer: who was invited, as what. */
export interface Invited {
  success: boolean;
  user_email: string;
  role: string;
}

/** NewUserInput is a validated operator user creation body. */
export type NewUserInput = z.infer<typeof AdminCreateUserSchema>;

/** UserAccessChanges is an operator user change without its email: role and/or disabled. */
export type UserAccessChanges = Omit<z.infer<typeof AdminUpdateUserSchema>, 'email'> & {
  /** keepAnAdmin refuses (409) a change that would leave the app with no enabled admin. */
  keepAnAdmin?: boolean;
};

/** UsersService is the signed-in user's profile, invitations, SSO tokens and operator actions. */
export interface UsersService {
  /** updateMe merges full_name and custom fields into the user; it never changes a role. */
  updateMe(user: UserRow, changes: OwnProfileChanges): Promise<PublicUser>;
  /** invite creates (or re-approves) the user with role and mails a link to set a password. */
  invite(appId: string, input: InviteInput, origin: string): Promise<Invited>;
  /**
   * ssoAccessToken returns the provider access token of a user who signed in with a provider (refreshed when
   * expired), else mints our own access token for them (the route checks for the service role).
   */
  ssoAccessToken(appId: string, userId: string): Promise<{ access_token: string }>;
  /** ssoIdToken returns a signed id token (sub, email, aud = app id) for a user of the app. */
  ssoIdToken(appId: string, userId: string): Promise<string>;
  /** createUser adds a verified, approved user with a password (the operator CLI and admin API). */
  createUser(appId: string, input: NewUserInput): Promise<PublicUser>;
  /** updateByEmail sets a user's role and/or disabled flag; a role change also approves the user. */
  updateByEmail(appId: string, email: string, changes: UserAccessChanges): Promise<PublicUser>;
}

/** ProviderAccessTokens hands out a user's provider access token, or null when they have none. */
export interface ProviderAccessTokens {
  accessToken(appId: string, userId: string): Promise<string | null>;
}

/** createUsersService returns the signed-in user's profile, invitations, SSO tokens and operator actions. */
export function createUsersService(
  deps: AccountDeps,
  signIn: SignInService,
  signer: SsoSigner,
  writes: UserWrites,
  providerTokens?: ProviderAccessTokens,
): UsersService {
  async function requireByEmail(appId: string, email: string): Promise<UserRow> {
    const user = await deps.users.findByEmail(appId, email);
    if (!user) throw new NotFoundError(`No user with email ${email}`);
    return user;
  }

  async function requireById(appId: string, id: string): Promise<UserRow> {
    const user = await deps.users.findById(appId, id);
    if (!user) throw new NotFoundError(`User "${id}" was not found`);
    return user;
  }

  return {
    /**
     * updateMe merges full_name and custom fields into the user (the route has already refused other keys),
     * the same write as the User entity's update, announced to realtime subscribers alike. A `role` equal
     * to the caller's current one is accepted and ignored (real onboarding pages send it back); any other
     * role is refused, as updateMe never changes a role.
     */
    async updateMe(
      user: UserRow,
      changes: { full_name?: string | undefined; role?: string | undefined; custom: Record<string, unknown> },
    ) {
      const { full_name, role, custom } = changes;
      if (role !== undefined && role !== user.role) {
        throw new InvalidInputError('role: cannot be changed here');
      }
      return writes.updateMe(user, { full_name, role: undefined, custom });
    },

    /**
     * invite creates (or re-approves) the user with role (one of the app's roles, else 400 naming it) and
     * mails a link to set a password.
     */
    async invite(appId: string, input: { user_email: string; role: string }, origin: string) {
      deps.roles.requireRole(input.role);
      await deps.apps.requireApp(appId);
      const existing = await deps.users.findByEmail(appId, input.user_email);
      // Inviting the app's only enabled admin with another role would demote them: refused as a demotion is.
      if (
        existing?.role === 'admin' &&
        input.role !== 'admin' &&
        !existing.disabled &&
        (await deps.users.countAdmins(appId)) <= 1
      ) {
        throw new ForbiddenError("The app's only admin cannot be demoted: make another user admin first");
      }
      const user = existing
        ? await deps.users.update(appId, existing.id, { role: input.role, approved: true })
        : await deps.users.insert({
            id: randomUUID(),
            appId,
            email: input.user_email,
            fullName: defaultFullName(input.user_email),
            role: input.role,
            isVerified: false,
            approved: true,
            passwordHash: null,
          });
      if (!user) throw new NotFoundError('The invited user no longer exists');
      writes.announce(user, existing ? 'update' : 'create');
      const link = await signIn.issueSetPasswordLink(user, 'invite', origin);
      await deps.mailer.send({
        to: user.email,
        subject: `You are invited to ${appId}`,
        text: `You have been invited to ${appId} as ${input.role}. Open this link within 7 days to set your password:\n\n${link}\n`,
      });
      return { success: true, user_email: user.email, role: input.role };
    },

    async ssoAccessToken(appId: string, userId: string) {
      const user = await requireById(appId, userId);
      if (user.disabled) throw new InvalidInputError('userId: the user is disabled');
      const fromProvider = await providerTokens?.accessToken(appId, user.id);
      return { access_token: fromProvider ?? (await deps.accessTokens.issueToken(user)) };
    },

    /** ssoIdToken returns a signed id token (sub, email, aud = app id) for a user of the app. */
    async ssoIdToken(appId: string, userId: string): Promise<string> {
      const user = await requireById(appId, userId);
      if (user.disabled) throw new InvalidInputError('userId: the user is disabled');
      return signer.mintIdToken({ userId: user.id, appId, email: user.email });
    },

    /**
     * createUser adds a verified, approved user with a password (the operator CLI and admin API), with role
     * (one of the app's roles) or else the app's default role.
     */
    async createUser(
      appId: string,
      input: { email: string; password: string; role?: string | undefined; full_name?: string | undefined },
    ): Promise<PublicUser> {
      const role = deps.roles.requireRole(input.role ?? deps.roles.defaultRole);
      await deps.apps.requireApp(appId);
      if (await deps.users.findByEmail(appId, input.email)) {
        throw new InvalidInputError(`email: a user with email ${input.email} already exists`);
      }
      const user = await deps.users.insert({
        id: randomUUID(),
        appId,
        email: input.email,
        fullName: input.full_name ?? defaultFullName(input.email),
        role,
        isVerified: true,
        approved: true,
        passwordHash: await deps.hasher.hash(input.password),
      });
      return writes.announce(user, 'create');
    },

    /**
     * updateByEmail sets a user's role (one of the app's roles) and/or disabled flag; a role change also
     * approves the user.
     */
    async updateByEmail(appId: string, email: string, changes: UserAccessChanges): Promise<PublicUser> {
      if (changes.role !== undefined) deps.roles.requireRole(changes.role);
      const user = await requireByEmail(appId, email);
      const updated = await deps.users.update(appId, user.id, {
        role: changes.role,
        disabled: changes.disabled,
        approved: changes.role ? true : undefined,
        keepAnAdmin: changes.keepAnAdmin,
      });
      if (!updated) {
        if (changes.keepAnAdmin && (await deps.users.findById(appId, user.id))) {
          throw new ConflictError(`${email} is the app's only active admin: make another user admin first`);
        }
        throw new NotFoundError(`No user with email ${email}`);
      }
      return writes.announce(updated, 'update');
    },
  };
}

/** SsoSigner is the part of the token signer SSO needs. */
export interface SsoSigner {
  mintIdToken(claims: { userId: string; appId: string; email: string }): Promise<string>;
}
