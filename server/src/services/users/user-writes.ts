import { ForbiddenError, InvalidInputError, NotFoundError, UnauthorizedError } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import { UpdateUserSchema, type ProfileChanges } from '../../schemas/auth';
import type { UserRow, UsersStore } from '../../store/users-store';
import type { EntityEvents } from '../entities/entity-events';
import { userCaller, type Caller } from '../../rules/caller';
import { readScope, stripHidden } from '../../rules/read-scope';
import { refuseDeniedWrites } from '../entities/field-rules';
import type { EntityDef } from '../../project/project-loader';
import { prepareRecord } from '../../project/record-validator';
import { customFieldsProblem, SIGN_IN_FOR_USERS, USER_ENTITY } from '../../project/user-entity';
import { ADMIN_ROLE, type AppRoles } from './app-roles';
import { toPublicUser, type PublicUser } from './public-user';

// Writes to users as the built-in User entity (PUT/DELETE entities/User/:id) and as updateMe, in one
// place so both validate custom fields alike and both announce the change to realtime subscribers.

/** UserWritesDeps is the users table and the app's roles plus, when the server runs a project, its User entity and events. */
export interface UserWritesDeps {
  users: UsersStore;
  roles: AppRoles;
  entity?: EntityDef | undefined;
  events?: EntityEvents | undefined;
}

const notFound = (id: string) => new NotFoundError(`Entity ${USER_ENTITY} with ID ${id} not found`);

const isPrivileged = (caller: Caller) =>
  caller.kind === 'service' || (caller.kind === 'user' && caller.user.role === ADMIN_ROLE);

/** UserWrites is the profile update shared by updateMe and the User entity's update/delete. */
export interface UserWrites {
  /** announce tells realtime subscribers of a user written elsewhere (invitations, operator actions). */
  announce(row: UserRow, type: 'create' | 'update' | 'delete'): PublicUser;
  /** updateMe is saveProfile on the signed-in user, as that user (role is never part of changes). */
  updateMe(user: UserRow, changes: ProfileChanges): Promise<PublicUser>;
  /** update merges a profile body into a user: oneself, or anyone for admins and the service role. */
  update(appId: string, caller: Caller, id: string, body: unknown): Promise<PublicUser>;
  /** remove deletes a user (admins and the service role only; the only admin by the service role alone). */
  remove(appId: string, caller: Caller, id: string): Promise<{ success: true }>;
}

/** createUserWrites returns the profile update shared with updateMe and the User entity's update/delete. */
export function createUserWrites(deps: UserWritesDeps): UserWrites {
  /**
   * checkedCustom validates the custom fields user.jsonc declares and checks their field-level write
   * rules against the stored user; undeclared custom keys stay free-form (as updateMe always allowed).
   */
  function checkedCustom(target: UserRow, custom: Record<string, unknown>, caller: Caller) {
    // Caps first (count and size of the fields as stored after the merge), before any validation.
    const capped = customFieldsProblem(target.custom, { ...target.custom, ...custom });
    if (capped) throw new InvalidInputError(capped);
    const shape = deps.entity?.custom;
    if (!shape || Object.keys(shape.properties).length === 0) return custom;
    const declared = Object.fromEntries(
      Object.entries(custom).filter(([key]) => Object.hasOwn(shape.properties, key)),
    );
    const prepared = prepareRecord(shape, declared, 'update');
    if (!prepared.ok) throw new InvalidInputError(prepared.message);
    refuseDeniedWrites({
      properties: shape.properties,
      changes: prepared.data,
      before: target.custom,
      context: toPublicUser(target),
      mode: 'update',
      caller,
    });
    return { ...custom, ...prepared.data };
  }

  function announce(row: UserRow, type: 'create' | 'update' | 'delete'): PublicUser {
    const record = toPublicUser(row);
    deps.events?.emit({ appId: row.app_id, entity: USER_ENTITY, type, id: row.id, record });
    return record;
  }

  async function refuseDemotingLastAdmin(caller: Caller, target: UserRow, role: string | undefined) {
    if (
      caller.kind === 'service' ||
      role === undefined ||
      role === ADMIN_ROLE ||
      target.role !== ADMIN_ROLE ||
      // A disabled admin is not among the enabled ones the app must keep.
      target.disabled
    ) {
      return;
    }
    if ((await deps.users.countAdmins(target.app_id)) <= 1) {
      throw new ForbiddenError("The app's only admin cannot be demoted: make another user admin first");
    }
  }

  /**
   * saveProfile validates and writes full_name, role and custom fields into target as caller, announces
   * the update (the event carries the whole public user) and returns what caller may read of it. Whether
   * caller may set the role, and whether the app has it, was decided before.
   */
  async function saveProfile(target: UserRow, changes: ProfileChanges, caller: Caller): Promise<PublicUser> {
    const updated = await deps.users.update(target.app_id, target.id, {
      fullName: changes.full_name,
      role: changes.role,
      // As for the operator's role changes: a user given a role is approved.
      approved: changes.role ? true : undefined,
      custom: checkedCustom(target, changes.custom, caller),
      // The check before gives the message; this one holds when two admins demote each other at once.
      keepAnAdmin: caller.kind !== 'service',
    });
    if (!updated) {
      if (!(await deps.users.findById(target.app_id, target.id))) throw notFound(target.id);
      throw new ForbiddenError("The app's only admin cannot be demoted: make another user admin first");
    }
    const record = announce(updated, 'update');
    return stripHidden(record, readScope(deps.entity?.properties ?? {}, caller)) as PublicUser;
  }

  /** requireVisible returns the user with id if caller may see it: self, or any user for admins/service. */
  async function requireVisible(appId: string, caller: Caller, id: string): Promise<UserRow> {
    if (caller.kind === 'anonymous') throw new UnauthorizedError(SIGN_IN_FOR_USERS);
    const target = await deps.users.findById(appId, id);
    if (!target || !(isPrivileged(caller) || (caller.kind === 'user' && caller.user.id === id))) {
      throw notFound(id);
    }
    return target;
  }

  return {
    /** announce tells realtime subscribers of a user written elsewhere (invitations, operator actions). */
    announce,

    /** updateMe is saveProfile on the signed-in user, as that user (role is never part of changes). */
    updateMe(user: UserRow, changes: ProfileChanges): Promise<PublicUser> {
      return saveProfile(user, { ...changes, role: undefined }, userCaller(user));
    },

    /**
     * update merges a profile body into a user: anyone into themself, admins and the service role into
     * anyone; only they may set `role` (403 naming it), and only to one of the app's roles (400 naming it).
     * Users the caller may not read are not found.
     */
    async update(appId: string, caller: Caller, id: string, body: unknown): Promise<PublicUser> {
      if (caller.kind === 'anonymous') throw new UnauthorizedError(SIGN_IN_FOR_USERS);
      const changes = parseInput(UpdateUserSchema, body);
      const target = await requireVisible(appId, caller, id);
      if (changes.role !== undefined && !isPrivileged(caller)) {
        throw new ForbiddenError("You're not allowed to modify the following fields: role");
      }
      if (changes.role !== undefined) deps.roles.requireRole(changes.role);
      await refuseDemotingLastAdmin(caller, target, changes.role);
      return saveProfile(target, changes, caller);
    },

    /**
     * remove deletes a user (admins and the service role only; a user may not delete even themself here).
     * The app's only admin can be deleted by the service role alone, so an admin cannot lock the app out.
     */
    async remove(appId: string, caller: Caller, id: string): Promise<{ success: true }> {
      const target = await requireVisible(appId, caller, id);
      if (!isPrivileged(caller)) throw new ForbiddenError('Only admins may delete users');
      const removed = await deps.users.remove(appId, id, caller.kind !== 'service');
      if (!removed) {
        if (target.role !== ADMIN_ROLE) throw notFound(id);
        throw new ForbiddenError("The app's only admin cannot be deleted: make another user admin first");
      }
      announce(removed, 'delete');
      return { success: true };
    },
  };
}
