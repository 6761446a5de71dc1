import { z } from 'zod';

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
