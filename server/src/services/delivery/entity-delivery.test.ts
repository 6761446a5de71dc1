import { createSocketIdentities } from './socket-identities';
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../rules/caller';
import type { EntityDef, Project } from '../../project/project-loader';
import { createEntityEvents } from '../entities/entity-events';
import {
  entityRooms,
  MAX_BATCH,
  MAX_FIELD_BYTES,
  slim,
  startEntityDelivery,
  visibleTo,
} from './entity-delivery';

const note: EntityDef = {
  name: 'Note',
  required: [],
  properties: {
    text: { type: 'string' },
    code: { type: 'string', rls: { read: { created_by: '{{user.email}}' } } },
  },
  rls: { read: { $or: [{ created_by: '{{user.email}}' }, { user_condition: { role: 'admin' } }] } },
};
const project: Project = { name: 'p', dir: '/p', entities: new Map([['Note', note]]), seeds: [] };
const record = { id: 'n1', text: 'hi', code: '42', created_by: 'alice@x.test', created_by_id: 'u1' };
const userOf = (email: string, role = 'user'): Caller => ({
  kind: 'user',
  user: { id: email, email, role, full_name: '', custom: {} },
});

describe('visibleTo', () => {
  it('gives the owner everything, the service role everything, an admin all but owner-only fields', () => {
    expect(visibleTo(project, { entity: 'Note', record }, userOf('alice@x.test'))).toEqual(record);
    expect(visibleTo(project, { entity: 'Note', record }, { kind: 'service' })).toEqual(record);
    const { code: _hidden, ...rest } = record;
    expect(visibleTo(project, { entity: 'Note', record }, userOf('root@x.test', 'admin'))).toEqual(rest);
  });

  it('gives another user, an anonymous caller and an unknown entity nothing', () => {
    expect(visibleTo(project, { entity: 'Note', record }, userOf('bob@x.test'))).toBeNull();
    expect(visibleTo(project, { entity: 'Note', record }, { kind: 'anonymous' })).toBeNull();
    expect(visibleTo(project, { entity: 'Other', record }, { kind: 'service' })).toBeNull();
  });
});

describe('slim', () => {
  it('leaves a small record alone', () => {
    expect(slim(record)).toBe(record);
  });

  it('empties string fields over 10 KB and flags _oversize', () => {
    const big = { ...record, body: 'x'.repeat(70 * 1024), note: 'y'.repeat(MAX_FIELD_BYTES) };
    expect(slim(big)).toEqual({ ...record, body: '', note: big.note, _oversize: true });
  });

  it('collapses to a stub when emptying big strings is not enough', () => {
    const many = { ...record, items: Array.from({ length: 20_000 }, (_, index) => index) };
    expect(slim(many)).toEqual({
      id: 'n1',
      created_by: 'alice@x.test',
      created_by_id: 'u1',
      _oversize: true,
    });
  });
});

describe('entityRooms', () => {
  const joiner = { appId: 'app', identity: null };
  it('admits the rooms of its own app’s known entities only', () => {
    const rooms = entityRooms((entity) => entity === 'Todo' || entity === 'User');
    expect(rooms.prefix).toBe('entities:');
    expect(rooms.mayJoin(joiner, 'entities:app:Todo')).toBe(true);
    expect(rooms.mayJoin(joiner, 'entities:app:User')).toBe(true);
    expect(rooms.mayJoin(joiner, 'entities:app:Nope')).toBe(false);
    expect(rooms.mayJoin(joiner, 'entities:other:Todo')).toBe(false);
    expect(rooms.mayJoin(joiner, 'entities:app:Todo:extra')).toBe(false);
    expect(rooms.mayJoin(joiner, 'entities:app:')).toBe(false);
  });
});

describe('startEntityDelivery', () => {
  // A stand-in hub that records what would reach sockets: dispatch runs the handler as one instance would.
  function setUp(
    sockets: { id: string; identity: Caller; admitted?: boolean; checkedAt?: number }[],
    admitsAnonymous?: () => Promise<boolean>,
    identify: () => Promise<{ caller: Caller; admitted: boolean }> = () =>
      Promise.reject(new Error('not used')),
  ) {
    const connected = sockets.map(({ id, identity, admitted = true, checkedAt = Date.now() }) => ({
      id,
      data: { appId: 'app', token: 't', identity, admitted, checkedAt },
    }));
    const handlers = new Map<string, (payload: unknown) => void>();
    const dispatched: unknown[] = [];
    const sent: { ids: string[]; data: Record<string, unknown> }[] = [];
    const hub = {
      handle: (name: string, handler: (payload: unknown) => void) => void handlers.set(name, handler),
      dispatch: (name: string, payload: unknown) => {
        dispatched.push(payload);
        handlers.get(name)?.(payload);
      },
      publish: () => undefined,
      localMembers: () => connected as never,
      localSockets: () => connected as never,
      onMembershipChange: () => undefined,
      sendTo: (ids: string[], _event: string, payload: unknown) =>
        sent.push({ ids, data: JSON.parse((payload as { data: string }).data) as Record<string, unknown> }),
    };
    const events = createEntityEvents();
    startEntityDelivery({
      project,
      events,
      hub,
      identities: createSocketIdentities({
        identifyMany: async (_app, tokens) => {
          const answer = await identify();
          return new Map(tokens.map((token) => [token, answer]));
        },
      }),
      ...(admitsAnonymous ? { admitsAnonymous } : {}),
      log: { info: () => undefined, warn: () => undefined },
    });
    return { events, dispatched, sent };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
  const event = (id: string) => ({
    appId: 'app',
    entity: 'Note',
    type: 'create' as const,
    id,
    record: { ...record, id },
  });

  it('sends one payload per identity, each filtered for it, and nothing to those who may not read', async () => {
    const { events, sent } = setUp([
      { id: 's1', identity: userOf('alice@x.test') },
      { id: 's2', identity: userOf('alice@x.test') },
      { id: 's3', identity: userOf('root@x.test', 'admin') },
      { id: 's4', identity: userOf('bob@x.test') },
    ]);
    events.emit(event('n1'));
    await settle();
    expect(sent.map(({ ids, data }) => [ids, (data.data as Record<string, unknown>).code])).toEqual([
      [['s1', 's2'], '42'],
      [['s3'], undefined],
    ]);
  });

  it('sends nothing to a socket the app does not admit', async () => {
    const { events, sent } = setUp([
      { id: 's1', identity: { kind: 'service' }, admitted: false },
      { id: 's2', identity: { kind: 'service' } },
    ]);
    events.emit(event('n1'));
    await settle();
    expect(sent.map(({ ids }) => ids)).toEqual([['s2']]);
  });

  it('stops sending to signed-out sockets once the app no longer admits anonymous callers', async () => {
    const open = { ...note, rls: { read: true } } as EntityDef;
    project.entities.set('Open', open);
    try {
      const { events, sent } = setUp(
        [
          { id: 's1', identity: { kind: 'anonymous' } },
          { id: 's2', identity: { kind: 'service' } },
        ],
        async () => false,
      );
      events.emit({ ...event('n1'), entity: 'Open' });
      await settle();
      expect(sent.map(({ ids }) => ids)).toEqual([['s2']]);
    } finally {
      project.entities.delete('Open');
    }
  });

  it('sends the events of one write together, in order, in batches of MAX_BATCH', async () => {
    const { events, dispatched, sent } = setUp([{ id: 's1', identity: { kind: 'service' } }]);
    for (let i = 0; i < MAX_BATCH + 1; i++) events.emit(event(`n${i}`));
    await settle();
    expect(dispatched.map((batch) => (batch as unknown[]).length)).toEqual([MAX_BATCH, 1]);
    expect(sent.map(({ data }) => data.id)).toEqual(Array.from({ length: MAX_BATCH + 1 }, (_, i) => `n${i}`));
  });

  it("re-checks a socket's token at the next event once its user was written (password, role…)", async () => {
    let checks = 0;
    const { events, sent } = setUp([{ id: 's1', identity: userOf('alice@x.test') }], undefined, async () => {
      checks += 1;
      return { caller: { kind: 'anonymous' }, admitted: true };
    });
    events.emit(event('n1'));
    await settle();
    expect(sent.map(({ ids }) => ids)).toEqual([['s1']]);
    events.emit({
      appId: 'app',
      entity: 'User',
      type: 'update',
      id: 'alice@x.test',
      record: { id: 'alice@x.test' },
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    events.emit(event('n2'));
    await settle();
    expect(checks).toBe(1);
    expect(sent.map(({ ids }) => ids)).toEqual([['s1']]);
  });

  it('does not trust a token it cannot re-check (the database is busy): the event goes as anonymous', async () => {
    const { events, sent } = setUp(
      [{ id: 's1', identity: userOf('alice@x.test'), checkedAt: 0 }],
      undefined,
      () => Promise.reject(new Error('database unavailable')),
    );
    events.emit(event('n1'));
    await settle();
    expect(sent).toEqual([]);
  });

  it('gives the event loop back during a long burst, and keeps the events in order', async () => {
    const { events, sent } = setUp([{ id: 's1', identity: { kind: 'service' } }]);
    const slowSend = sent.push.bind(sent);
    // Each send takes 1 ms of CPU, as encoding for thousands of sockets would: 100 events are 100 ms.
    sent.push = (...items) => {
      const until = performance.now() + 1;
      while (performance.now() < until);
      return slowSend(...items);
    };
    for (let i = 0; i < 100; i++) events.emit(event(`n${i}`));
    const sentWhenLoopRan = await new Promise<number>((resolve) =>
      setTimeout(() => setImmediate(() => resolve(sent.length)), 0),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sentWhenLoopRan).toBeLessThan(100);
    expect(sent.map(({ data }) => data.id)).toEqual(Array.from({ length: 100 }, (_, i) => `n${i}`));
  });
});
