// Connector files: read as the CLI writes them (one type per file, unknown keys kept), from `connectorsDir`
// too, and each mistake stops the start naming the file and the key.
import { describe, expect, it } from 'vitest';
import { shownPath, useTempProjects } from '../test-support/temp-project';
import { loadConnectors } from './connector-loader';
import { loadProject } from './project-loader';

const projectWith = useTempProjects('connectors');

describe('loadConnectors', () => {
  it('reads each type, lower-cased, with its scopes and connector id', async () => {
    const dir = await projectWith({
      'connectors/calendar.jsonc':
        '{ // comment\n "type": "GoogleCalendar", "scopes": ["a", "a", "b"], "connectorId": "69a1", "later": 1 }',
      'connectors/crm.jsonc': '{ "type": "my_crm" }',
    });
    const connectors = await loadConnectors(dir, 'connectors', shownPath);
    expect([...connectors.keys()]).toEqual(['googlecalendar', 'my_crm']);
    expect(connectors.get('googlecalendar')).toMatchObject({ scopes: ['a', 'b'], connectorId: '69a1' });
    expect(connectors.get('my_crm')?.scopes).toEqual([]);
    expect((await loadConnectors(await projectWith({}), 'connectors', shownPath)).size).toBe(0);
  });

  it('follows connectorsDir of config.jsonc', async () => {
    const dir = await projectWith({
      'config.jsonc': '{ "connectorsDir": "oauth" }',
      'oauth/slack.jsonc': '{ "type": "slack", "scopes": ["chat:write"] }',
    });
    expect([...((await loadProject(dir)).connectors?.keys() ?? [])]).toEqual(['slack']);
  });

  it.each([
    [{ 'connectors/a.jsonc': '{ "type": "not a slug" }' }, /connectors\/a\.jsonc.*type/],
    [{ 'connectors/a.jsonc': '{ "type": "a", "scopes": ["has space"] }' }, /scopes/],
    [
      { 'connectors/a.jsonc': '{ "type": "x" }', 'connectors/b.jsonc': '{ "type": "X" }' },
      /"x" is declared twice/,
    ],
    [
      {
        'connectors/a.jsonc': '{ "type": "a", "connectorId": "id1" }',
        'connectors/b.jsonc': '{ "type": "b", "connectorId": "id1" }',
      },
      /connectorId: "id1" is used twice/,
    ],
  ])('refuses %j', async (files, message) => {
    await expect(loadConnectors(await projectWith(files), 'connectors', shownPath)).rejects.toThrow(message);
  });
});
