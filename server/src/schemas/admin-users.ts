import { z } from 'zod';
import { RoleSchema } from './auth';

/** ADMIN_USERS_PAGE_SIZE is how many users one page of the console's Users table holds. */
export const ADMIN_USERS_PAGE_SIZE = 50;

/** AdminUsersQuerySchema is the console's users query: page, search, sort and filters, each bounded. */
export const AdminUsersQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(10_000, 'must be at most 10000')
    .default(1),
  q: z.string().trim().max(200, 'must be at most 200 characters').default(''),
  sort: z
    .enum(['email', '-email', 'name', '-name', 'role', '-role', 'created', '-created'], {
      error: 'must be email, name, role or created, with - for descending',
    })
    .default('email'),
  role: z.string().trim().max(100, 'must be at most 100 characters').optional(),
  status: z.enum(['active', 'disabled'], { error: 'must be active or disabled' }).optional(),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuerySchema>;

/** AdminUserParamsSchema is a console route naming one user of an app by id. */
export const AdminUserParamsSchema = z.object({
  appId: z.string().min(1),
  id: z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
});

// The custom fields one change may send: the same caps the users table keeps (MAX_CUSTOM_USER_FIELDS);
// their values are validated against User.jsonc by the user writes, as every user update is.
const MAX_DATA_FIELDS = 64;
const BUILT_IN_KEYS = ['role', 'disabled'];

/** AdminUserChangeSchema is the console's change to one user: role, disabled and/or custom fields. */
export const AdminUserChangeSchema = z
  .strictObject(
    {
      role: RoleSchema.optional(),
      disabled: z.boolean({ error: 'must be true or false' }).optional(),
      data: z
        .record(z.string().max(64, 'field names are at most 64 characters'), z.unknown(), {
          error: 'must be an object of custom fields',
        })
        .refine((data) => Object.keys(data).length <= MAX_DATA_FIELDS, {
          message: `must hold at most ${MAX_DATA_FIELDS} fields`,
        })
        .refine((data) => !BUILT_IN_KEYS.some((key) => Object.hasOwn(data, key)), {
          message: 'must not hold role or disabled: send them beside data',
        })
        .optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? 'only role, disabled and data may be changed'
          : 'the body must be a JSON object',
    },
  )
  .refine((change) => change.role !== undefined || change.disabled !== undefined || change.data, {
    message: 'give role, disabled or data',
  });
export type AdminUserChange = z.infer<typeof AdminUserChangeSchema>;
