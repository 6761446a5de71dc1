import { describe, expect, it } from 'vitest';
import type { AppRow, AppsStore } from '../../store/apps-store';
import { createAppsService } from './apps-service';

function fakeStore() {
  const rows = new Map<string, AppRow>();
  let reads = 0;
  const store: AppsStore = {
    async ensure(id) {
      if (!rows.has(id)) {
        rows.set(id, { id, public_settings: 'public_without_login', self_signup: true });
      }
    },
    async findById(id) {
      reads += 1;
      return rows.get(id) ?? null;
    },
    async updateSettings(id, settings) {
      const row = rows.get(id);
      if (!row) return;
      rows.set(id, {
        ...row,
        public_settings: settings.publicSettings ?? row.public_settings,
        self_signup: settings.selfSignup ?? row.self_signup,
      });
    },
  };
  return { store, reads: () => reads };
}

describe('createAppsService', () => {
  it('reads a known app from the store once per cache period', async () => {
    let time = 0;
    const { store, reads } = fakeStore();
    const apps = createAppsService(store, () => time);
    await apps.ensureApp('a');
    await apps.requireApp('a');
    await apps.requireApp('a');
    expect(reads()).toBe(1);
    time += 2001;
    await apps.requireApp('a');
    expect(reads()).toBe(2);
  });

  it('sees its own settings change at once, and never caches unknown apps', async () => {
    const { store, reads } = fakeStore();
    const apps = createAppsService(store, () => 0);
    await apps.ensureApp('a');
    expect((await apps.findPublicSettings('a')).public_settings).toBe('public_without_login');
    await apps.updateSettings('a', { visibility: 'private_with_login' });
    expect((await apps.findPublicSettings('a')).public_settings).toBe('private_with_login');
    await expect(apps.requireApp('nope')).rejects.toThrow('was not found');
    const before = reads();
    await expect(apps.requireApp('nope')).rejects.toThrow('was not found');
    expect(reads()).toBe(before + 1);
  });
});
