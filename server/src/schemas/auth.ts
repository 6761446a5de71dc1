import { z } from 'zod';

const requiredString = (what = 'a string') =>
  z.string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be ${what}`) });

const email = requiredString()
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email({ error: 'must be a valid email address' }));

/** PASSWORD_MIN_LENGTH is the shortest password accepted. */
export const PASSWORD_MIN_LENGTH = 8;

const password = requiredString()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(256, 'must be at most 256 characters');

const turnstile = z.string({ error: 'must be a string' }).max(4096).optional();
const body = { error: 'the body must be a JSON object' };

/** RegisterSchema is the body of `auth/register`. */
export const RegisterSchema = z.object(
  {
    email,
    password,
    turnstile_token: turnstile,
    referral_code: z.string({ error: 'must be a string' }).max(200).optional(),
  },
  body,
);

/** LoginSchema is the body of `auth/login`; the password is only checked for presence. */
export const LoginSchema = z.object(
  { email, password: requiredString().min(1, 'must not be empty').max(256), turnstile_token: turnstile },
  body,
);

/** VerifyOtpSchema is the body of `auth/verify-otp`. */
export const VerifyOtpSchema = z.object(
  {
    email,
    otp_code: requiredString()
      .trim()
      .regex(/^\d{6}$/, 'must be the 6-digit code from the mail'),
  },
  body,
);

/** EmailOnlySchema is the body of `auth/resend-otp` and `auth/reset-password-request`. */
export const EmailOnlySchema = z.object({ email }, body);

/** ResetPasswordSchema is the body of `auth/reset-password` (reset and invite tokens alike). */
export const ResetPasswordSchema = z.object(
  { reset_token: requiredString().min(1, 'must not be empty').max(512), new_password: password },
  body,
);

/** ChangePasswordSchema is the body of `auth/change-password`. */
export const ChangePasswordSchema = z.object(
  {
    user_id: requiredString().min(1, 'must not be empty').max(128),
    current_password: requiredString().min(1, 'must not be empty').max(256),
    new_password: password,
  },
  body,
);

/**
 * RoleSchema is how any role is spelled, declared in `User.jsonc` or given to a user (the users table checks
 * the same pattern, migration 11). Whether the app has the role is the users service's decision.
 */
export const RoleSchema = requiredString().regex(
  /^[A-Za-z][A-Za-z0-9_-]{0,31}$/,
  'must be a role name: a letter, then letters, digits, "_" or "-" (at most 32 characters)',
);

/** InviteUserSchema is the body of both invite-user routes. */
export const InviteUserSchema = z.object({ user_email: email, role: RoleSchema }, body);

/** UserParamsSchema is a route naming a user of an app. */
export const UserParamsSchema = z.object({ appId: z.string().min(1), userId: z.string().min(1).max(128) });

/** LogoutQuerySchema is the query of `GET /api/apps/auth/logout`. */
export const LogoutQuerySchema = z.object({ from_url: z.string().max(4096).optional() });

const FROZEN_USER_FIELDS = [
  'id',
  'email',
  'role',
  'created_date',
  'updated_date',
  'created_by',
  'created_by_id',
  'collaborator_role',
  '_app_role',
  'app_id',
  'is_verified',
  'disabled',
  'is_service',
  'password',
  'password_hash',
];

/**
 * SELF_FROZEN_USER_FIELDS are also the names of server-owned columns a user could otherwise shadow with a
 * custom field of their own (issue 18: `approved: true` was stored and shown on the user's record). An
 * admin may still set a custom field of that name, as an app's own approval flow may declare one.
 */
const SELF_FROZEN_USER_FIELDS = [...FROZEN_USER_FIELDS, 'approved', 'token_version'];

/** profileChanges is a user-profile body: full_name, custom fields and (only when roleAllowed) role. */
function profileChanges(roleAllowed: boolean, frozenFields: string[] = FROZEN_USER_FIELDS) {
  const frozen = roleAllowed ? frozenFields.filter((key) => key !== 'role') : frozenFields;
  return z
    .record(z.string(), z.unknown(), body)
    .superRefine((value, context) => {
      for (const key of Object.keys(value)) {
        if (frozen.includes(key)) {
          context.addIssue({ code: 'custom', path: [key], message: 'cannot be changed here' });
        } else if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(key)) {
          context.addIssue({ code: 'custom', path: [key], message: 'is not a valid field name' });
        }
      }
      if ('full_name' in value && (typeof value.full_name !== 'string' || value.full_name.length > 200)) {
        context.addIssue({
          code: 'custom',
          path: ['full_name'],
          message: 'must be a string of at most 200 characters',
        });
      }
      const role = 'role' in value ? RoleSchema.safeParse(value.role) : undefined;
      if (role && !role.success) {
        context.addIssue({
          code: 'custom',
          path: ['role'],
          message: role.error.issues[0]?.message ?? 'invalid',
        });
      }
    })
    .transform(({ full_name, role, ...custom }) => ({
      full_name: full_name as string | undefined,
      role: role as string | undefined,
      custom,
    }));
}

/**
 * UpdateMeSchema is the body of `PUT entities/User/me`: full_name and custom fields, nothing the server owns.
 * `role` parses (real onboarding pages send the caller's current role back); the service refuses a change.
 */
export const UpdateMeSchema = profileChanges(true, SELF_FROZEN_USER_FIELDS);

/**
 * UpdateUserSchema is the body of `PUT entities/User/:id`: as UpdateMeSchema plus `role` (whether the
 * caller may change it is the service's decision).
 */
export const UpdateUserSchema = profileChanges(true);

/** ProfileChanges is a parsed UpdateMeSchema or UpdateUserSchema body. */
export type ProfileChanges = z.infer<typeof UpdateUserSchema>;

/** AdminCreateUserSchema is the body of the operator API's user creation. */
export const AdminCreateUserSchema = z.object(
  {
    email,
    password,
    // Absent: the app's default role (declared in User.jsonc, else `user`).
    role: RoleSchema.optional(),
    full_name: z.string({ error: 'must be a string' }).max(200).optional(),
  },
  body,
);

/** AdminUpdateUserSchema is the body of the operator API's user change (role, disabled). */
export const AdminUpdateUserSchema = z.object(
  { email, role: RoleSchema.optional(), disabled: z.boolean({ error: 'must be true or false' }).optional() },
  body,
);

/** AppSettingsSchema is the body of the operator API's app settings change. */
export const AppSettingsSchema = z.object(
  {
    visibility: z
      .enum(['public_without_login', 'public_with_login', 'private_with_login'], {
        error: 'must be public_without_login, public_with_login or private_with_login',
      })
      .optional(),
    self_signup: z.boolean({ error: 'must be true or false' }).optional(),
  },
  body,
);
