// The console's Users table: one page of the app's users, searched, sorted and filtered on the server, and
// what its forms offer (the app's roles and User.jsonc's custom fields).
import { ADMIN_USERS_PAGE_SIZE, type AdminUsersQuery } from '../../schemas/admin-users';
import type { UserCustomFields } from '../../project/entity-def';
import type { AdminUsersStore } from '../../store/admin-users-store';
import type { AppRoles } from '../users/app-roles';

/** UserFieldsSource is what the project declares about users: roles and custom fields. */
export interface UserFieldsSource {
  roles: Pick<AppRoles, 'roles' | 'defaultRole'>;
  custom?: UserCustomFields | undefined;
}

/** fieldOf is one custom field as the console's editor draws it: its type, choices and bounds. */
function fieldOf(name: string, property: UserCustomFields['properties'][string], required: string[]) {
  const { type, enum: choices, description, minimum, maximum, maxLength } = property;
  return {
    name,
    type: Array.isArray(type) ? (type[0] ?? 'string') : (type ?? 'string'),
    required: required.includes(name),
    ...(choices ? { enum: choices } : {}),
    ...(typeof description === 'string' ? { description } : {}),
    ...(minimum === undefined ? {} : { minimum }),
    ...(maximum === undefined ? {} : { maximum }),
    ...(maxLength === undefined ? {} : { maxLength }),
  };
}

/** createAdminUsers returns the reader of the console's users pages. */
export function createAdminUsers(store: Pick<AdminUsersStore, 'page'>, source: UserFieldsSource) {
  return {
    /** list answers one page (ADMIN_USERS_PAGE_SIZE users) and the total that match. */
    async list(appId: string, query: AdminUsersQuery) {
      const { users, total } = await store.page(appId, query, ADMIN_USERS_PAGE_SIZE);
      return { users, total, page: query.page, page_size: ADMIN_USERS_PAGE_SIZE };
    },
    /** fields answers the app's roles (and new users' default) and User.jsonc's custom fields. */
    fields() {
      const custom = source.custom ?? { properties: {}, required: [] };
      return {
        roles: [...source.roles.roles],
        default_role: source.roles.defaultRole,
        fields: Object.entries(custom.properties).map(([name, property]) =>
          fieldOf(name, property, custom.required),
        ),
      };
    },
  };
}

export type AdminUsers = ReturnType<typeof createAdminUsers>;
