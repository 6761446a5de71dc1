// The console's user-change rules on fakes: an admin never disables themself, the last enabled admin is
// neither disabled nor demoted (a disabled admin does not count), a refused change writes nothing and is not
// audited, and an accepted one is audited with the touched fields before and after.
import { describe, expect, it, vi } from 'vitest';
import type { UserRow } from '../../store/users-store';
import type { AuditChange } from '../audit/audit-log';
import { toPublicUser } from '../users/public-user';
import { createAdminUserChanges, type Operator } from './admin-user-changes';

const row = (id: string, role: string, disabled = false): UserRow => ({
  id,
  app_id: 'app',
  email: `${id}@test`,
  full_name: id,
  role,
  is_verified: true,
  disabled,
  approved: true,
  password_hash: 'hash',
  custom: {},
  token_version: 0,
  created_date: new Date(0),
  updated_date: new Date(0),
});

function setUp(users: UserRow[]) {
  const table = new Map(users.map((user) => [user.id, user]));
  const recorded: AuditChange[] = [];
  const update = vi.fn(async (_app: string, _caller: unknown, id: string, body: unknown) => {
    const { role, ...custom } = body as Record<string, unknown>;
    const user = table.get(id) as UserRow;
    const next = {
      ...user,
      role: typeof role === 'string' ? role : user.role,
      custom: { ...user.custom, ...custom },
    };
    table.set(id, next);
    return toPublicUser(next);
  });
  const changes = createAdminUserChanges({
    users: {
      findById: async (_app, id) => table.get(id) ?? null,
      findByEmail: async (_app, email) => [...table.values()].find((user) => user.email === email) ?? null,
      countAdmins: async () =>
        [...table.values()].filter((user) => user.role === 'admin' && !user.disabled).length,
    },
    writes: { update },
    access: {
      invite: vi.fn(),
      updateByEmail: vi.fn(
        async (_app: string, email: string, change: { disabled?: boolean | undefined }) => {
          const user = [...table.values()].find((candidate) => candidate.email === email) as UserRow;
          table.set(user.id, { ...user, disabled: change.disabled ?? user.disabled });
          return toPublicUser(user);
        },
      ),
    },
    signIn: { mailAdminReset: vi.fn() },
    audit: { record: async (_app, _actor, change) => void recorded.push(change) },
  });
  return { changes, recorded, update, table };
}

const as = (user: UserRow): Operator => ({
  caller: { kind: 'user', user: { ...user } },
  actor: { kind: 'admin', id: user.id, email: user.email },
});
const service: Operator = { caller: { kind: 'service' }, actor: { kind: 'service', via: 'api' } };

describe('createAdminUserChanges', () => {
  it('refuses an admin disabling themself (403), writing and auditing nothing', async () => {
    const boss = row('boss', 'admin');
    const { changes, recorded, table } = setUp([boss, row('other', 'admin')]);
    await expect(changes.change('app', as(boss), 'boss', { disabled: true })).rejects.toThrow(
      'You cannot disable yourself',
    );
    expect(table.get('boss')?.disabled).toBe(false);
    expect(recorded).toEqual([]);
  });

  it('keeps the last enabled admin (a disabled admin does not count), even for the service role', async () => {
    const { changes, recorded, update } = setUp([row('boss', 'admin'), row('gone', 'admin', true)]);
    for (const change of [{ disabled: true }, { role: 'user' }]) {
      await expect(changes.change('app', service, 'boss', change)).rejects.toMatchObject({
        name: 'ConflictError',
        message: expect.stringContaining("boss@test is the app's only active admin") as unknown,
      });
    }
    expect(update).not.toHaveBeenCalled();
    expect(recorded).toEqual([]);
  });

  it('lets another admin be disabled or demoted, and audits the role, status and touched fields', async () => {
    const boss = row('boss', 'admin');
    const { changes, recorded } = setUp([boss, row('deputy', 'admin')]);
    const user = await changes.change('app', as(boss), 'deputy', { role: 'user', data: { nickname: 'D' } });
    expect(user).toMatchObject({ role: 'user', nickname: 'D' });
    expect(recorded).toEqual([
      {
        action: 'user.update',
        target: 'user:deputy@test',
        before: { role: 'admin', disabled: false, data: { nickname: null } },
        after: { role: 'user', disabled: false, data: { nickname: 'D' } },
      },
    ]);
  });

  it('answers 404 for an unknown user', async () => {
    const { changes } = setUp([row('boss', 'admin')]);
    await expect(changes.change('app', service, 'nobody', { disabled: true })).rejects.toMatchObject({
      name: 'NotFoundError',
    });
  });
});
