import type { UserRow } from '../../store/users-store';

/** PublicUser is the user as the SDK sees it: never a password hash or internal flag. */
export interface PublicUser {
  id: string;
  email: string;
  full_name: string;
  role: string;
  is_verified: boolean;
  disabled: boolean;
  app_id: string;
  created_date: string;
  updated_date: string;
  [custom: string]: unknown;
}

/** toPublicUser maps a stored row to the SDK's user object; custom fields never shadow built-in ones. */
export function toPublicUser(row: UserRow): PublicUser {
  return {
    ...row.custom,
    id: row.id,
    email: row.email,
    full_name: row.full_name,
    role: row.role,
    is_verified: row.is_verified,
    disabled: row.disabled,
    app_id: row.app_id,
    created_date: new Date(row.created_date).toISOString(),
    updated_date: new Date(row.updated_date).toISOString(),
  };
}
