// The console's Users table: one page of the app's users, searched, sorted and filtered on the server.
import { ADMIN_USERS_PAGE_SIZE, type AdminUsersQuery } from '../../schemas/admin-users';
import type { AdminUsersStore } from '../../store/admin-users-store';

/** createAdminUsers returns the reader of the console's users pages. */
export function createAdminUsers(store: Pick<AdminUsersStore, 'page'>) {
  return {
    /** list answers one page (ADMIN_USERS_PAGE_SIZE users) and the total that match. */
    async list(appId: string, query: AdminUsersQuery) {
      const { users, total } = await store.page(appId, query, ADMIN_USERS_PAGE_SIZE);
      return { users, total, page: query.page, page_size: ADMIN_USERS_PAGE_SIZE };
    },
  };
}

export type AdminUsers = ReturnType<typeof createAdminUsers>;
