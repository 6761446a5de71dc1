// The Overview's figures: the app's settings, users and records per entity (an entity without records
// shows 0, User counts the accounts), the server's facts as given, the uptime, and the current warnings.
import { describe, expect, it } from 'vitest';
import { createAppOverview, type ServerFacts } from './app-overview';

const FACTS: ServerFacts = {
  database: { engine: 'postgres', detail: 'PostgreSQL db.internal:5432/queen' },
  realtime: 'single instance',
  fileStorage: 'disk',
  llm: { configured: false, detail: 'not set (LLM_PROVIDER_URL)' },
  mail: { mode: 'outbox', detail: 'outbox' },
  version: '0.1.0',
  startedAt: 1_000_000,
  signInProviders: ['google'],
  environment: [{ variable: 'PUBLIC_URL', value: 'https://crown.example' }],
};

describe('app overview', () => {
  it('gathers the app, its counts, the facts and the warnings', async () => {
    const overview = createAppOverview({
      store: {
        countUsers: async () => 3,
        countRecordsByEntity: async () =>
          new Map([
            ['Todo', 7],
            ['Legacy', 2],
          ]),
      },
      apps: { findAccessSettings: async () => ({ visibility: 'private_with_login', selfSignup: false }) },
      appName: 'Crown',
      entityNames: ['Todo', 'Note', 'User'],
      facts: FACTS,
      warnings: async () => [{ message: 'PUBLIC_URL is not set.', action: 'Set PUBLIC_URL.' }],
      now: () => 1_000_000 + 3_725_500,
    });
    const found = await overview.find('crown-app');
    expect(found.app).toEqual({
      id: 'crown-app',
      name: 'Crown',
      visibility: 'private_with_login',
      selfSignup: false,
    });
    expect(found.counts).toEqual({
      users: 3,
      entities: [
        { name: 'Legacy', records: 2 },
        { name: 'Note', records: 0 },
        { name: 'Todo', records: 7 },
        { name: 'User', records: 3 },
      ],
    });
    expect(found.database).toEqual(FACTS.database);
    expect(found.uptimeSeconds).toBe(3725);
    expect(found.signInProviders).toEqual(['google']);
    expect(found.environment).toEqual(FACTS.environment);
    expect(found).not.toHaveProperty('startedAt');
    expect(found.warnings).toEqual([{ message: 'PUBLIC_URL is not set.', action: 'Set PUBLIC_URL.' }]);
  });
});
