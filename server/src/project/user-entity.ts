import { z } from 'zod';
import type { EntityRls } from '../rules/rule-schema';
import { RoleSchema } from '../schemas/auth';
import type { PropertySchema } from '../schemas/entity-project';
import type { EntityDef, UserCustomFields } from './entity-def';

// The built-in User entity: its records come from the users table (never entity_records), its rules are
// fixed here rather than in a project file, and a project's `user.jsonc` may only add custom fields.

/** USER_ENTITY is the built-in entity's name; routes match it ignoring case like any entity. */
export const USER_ENTITY = 'User';

/** SIGN_IN_FOR_USERS is the 401 message an anonymous caller of any User entity route gets. */
export const SIGN_IN_FOR_USERS = 'Sign in to use the User entity: users are not visible anonymously';

/** BUILT_IN_USER_FIELDS are the public columns every user record carries (see toPublicUser). */
export const BUILT_IN_USER_FIELDS: Record<string, PropertySchema> = {
  email: { type: 'string', format: 'email' },
  full_name: { type: 'string' },
  role: { type: 'string', enum: ['admin', 'user'] },
  is_verified: { type: 'boolean' },
  disabled: { type: 'boolean' },
  app_id: { type: 'string' },
};

/**
 * RESERVED_USER_FIELDS may not be declared by `user.jsonc`: the built-in fields, the stamps, what the
 * SDK documents as server-owned, and the secret columns (so a custom field can never alias one).
 */
export const RESERVED_USER_FIELDS = new Set([
  ...Object.keys(BUILT_IN_USER_FIELDS),
  'id',
  'created_date',
  'updated_date',
  'created_by',
  'created_by_id',
  'collaborator_role',
  '_app_role',
  'is_service',
  'password_hash',
  'approved',
  'custom',
]);

/** MAX_CUSTOM_USER_FIELDS is how many custom fields one user may hold (declared or free-form). */
export const MAX_CUSTOM_USER_FIELDS = 64;
/** MAX_CUSTOM_USER_BYTES is the most one user's custom fields may weigh, as JSON (UTF-8 bytes). */
export const MAX_CUSTOM_USER_BYTES = 64 * 1024;

/**
 * customFieldsProblem says why a user's custom fields after a write (`after`, merged over `before`) are
 * over MAX_CUSTOM_USER_FIELDS or MAX_CUSTOM_USER_BYTES, or null. A user already over a cap (from before the
 * caps) may still write when the write adds no field and does not grow them.
 */
export function customFieldsProblem(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): string | null {
  const count = Object.keys(after).length;
  const bytes = Buffer.byteLength(JSON.stringify(after));
  const grows = count > Object.keys(before).length || bytes > Buffer.byteLength(JSON.stringify(before));
  if (!grows) return null;
  if (count > MAX_CUSTOM_USER_FIELDS) {
    return `A user may hold at most ${MAX_CUSTOM_USER_FIELDS} custom fields (this write makes ${count})`;
  }
  if (bytes > MAX_CUSTOM_USER_BYTES) {
    return `A user's custom fields may take at most ${MAX_CUSTOM_USER_BYTES / 1024} KB as JSON (this write makes ${Math.ceil(bytes / 1024)} KB)`;
  }
  return null;
}

/** USER_RULES let admins read every user and anyone else only themself; the service role bypasses it. */
const USER_RULES: EntityRls = {
  read: { $or: [{ user_condition: { role: 'admin' } }, { id: '{{user.id}}' }] },
};

/**
 * UserRoleSchema is the `role` a project's `user.jsonc` may declare (real apps do: `admin|leader|pastor|user`,
 * `admin|student`): a string enum, with a default among them. Unknown keys (a description) are kept.
 */
export const UserRoleSchema = z
  .looseObject({
    type: z.literal('string', { error: 'must be "string"' }).optional(),
    enum: z.array(RoleSchema).min(1, 'must list at least one role'),
    default: RoleSchema.optional(),
  })
  .refine((role) => role.default === undefined || role.enum.includes(role.default), {
    message: 'the default role must be one of the enum',
    path: ['default'],
  });
export type UserRoleDeclaration = z.infer<typeof UserRoleSchema>;

/**
 * builtInUserEntity returns the User entity: the built-in public fields plus the project's custom ones, and
 * the project's `role` declaration in place of the built-in one when it states one (the roles users may
 * hold and new users' default: services/users/app-roles.ts).
 */
export function builtInUserEntity(
  custom: UserCustomFields = { properties: {}, required: [] },
  role?: UserRoleDeclaration,
): EntityDef {
  return {
    name: USER_ENTITY,
    properties: {
      ...custom.properties,
      ...BUILT_IN_USER_FIELDS,
      ...(role ? { role: { ...role, type: 'string' } } : {}),
    },
    required: [],
    rls: USER_RULES,
    custom,
  };
}

/** isUserEntity says whether def is the built-in User (whose records live in the users table). */
export function isUserEntity(def: EntityDef): boolean {
  return def.custom !== undefined;
}
