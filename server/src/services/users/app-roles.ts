import { InvalidInputError } from '../../lib/errors';
import type { EntityDef } from '../../project/entity-def';

// The roles an app's users may hold. A project's `User.jsonc` may declare them (`admin|leader|pastor|user`,
// `admin|student`, with a default); without a declaration they are `admin` and `user`. `admin` always
// exists and always means the operator (admin API, every user's record, page-log reads), whether or not
// the enum lists it: an app whose enum lacks it would otherwise have no one to run it.

/** ADMIN_ROLE is the operator role every app has. */
export const ADMIN_ROLE = 'admin';
/** PLAIN_ROLE is a new user's role when the app declares none. */
export const PLAIN_ROLE = 'user';

/** AppRoles is what the services need to know about roles: which exist and which new users get. */
export interface AppRoles {
  /** roles lists every role a user may be given: the declared enum, plus `admin`. */
  readonly roles: readonly string[];
  /** defaultRole is what every new user gets (sign-up, invite without a role, CLI create). */
  readonly defaultRole: string;
  /** requireRole returns role when the app has it, else throws InvalidInputError (400) naming `role`. */
  requireRole(role: string): string;
}

function declaredRoles(userEntity: EntityDef | undefined): { roles: string[]; fallback?: string } {
  const declaration = userEntity?.properties.role;
  const roles = declaration?.enum?.filter((role): role is string => typeof role === 'string') ?? [];
  if (roles.length === 0) return { roles: [ADMIN_ROLE, PLAIN_ROLE] };
  const fallback = typeof declaration?.default === 'string' ? declaration.default : undefined;
  return { roles, ...(fallback === undefined ? {} : { fallback }) };
}

/**
 * appRolesOf reads the roles from the project's User entity. The default is the declared one, else `user`
 * when declared, else the first declared non-admin role. A default of `admin` is never applied: it would
 * make every stranger who signs up an operator; such an app's new users get the fallback instead (and
 * `user` is added to the roles when nothing else is left).
 */
export function appRolesOf(userEntity: EntityDef | undefined): AppRoles {
  const declared = declaredRoles(userEntity);
  const nonAdmin = declared.roles.filter((role) => role !== ADMIN_ROLE);
  const defaultRole =
    declared.fallback !== undefined && declared.fallback !== ADMIN_ROLE
      ? declared.fallback
      : nonAdmin.includes(PLAIN_ROLE)
        ? PLAIN_ROLE
        : (nonAdmin[0] ?? PLAIN_ROLE);
  const roles = [...new Set([...declared.roles, ADMIN_ROLE, defaultRole])];
  const listed = roles.map((role) => `"${role}"`).join(', ');
  return {
    roles,
    defaultRole,
    requireRole(role) {
      if (!roles.includes(role))
        throw new InvalidInputError(`role: must be one of this app's roles: ${listed}`);
      return role;
    },
  };
}
