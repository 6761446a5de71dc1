import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RoomMember } from '../../realtime/realtime-hub';
import type { Caller } from '../../rules/caller';
import type { SocketAccess } from '../identity/app-access';
import { createRoomGroups } from './room-groups';
import { createSocketIdentities, REVALIDATE_MS } from './socket-identities';

const ROOM = 'entities:app:Todo';
const userCaller = (id: string, role = 'user'): Caller => ({
  kind: 'user',
  user: { id, email: `${id}@x.test`, role, full_name: '', custom: {} },
});
const socket = (id: string, user: string, admitted = true): RoomMember => ({
  id,
  data: { appId: 'app', token: `t-${user}`, identity: userCaller(user), admitted, checkedAt: Date.now() },
});

/** setUp is a room on a stand-in hub that counts its member listings, with identities answered from answers. */
function setUp(initial: RoomMember[]) {
  const members = [...initial];
  const listeners: ((room: string) => void)[] = [];
  const listings = { count: 0 };
  const answers = new Map<string, SocketAccess>();
  const identities = createSocketIdentities({
    identifyMany: async (_app, tokens) =>
      new Map(
        tokens.map((token) => [
          token,
          answers.get(token) ?? { caller: userCaller(token.slice(2)), admitted: true },
        ]),
      ),
  });
  const hub = {
    localMembers: (room: string) => {
      listings.count += 1;
      return room === ROOM ? [...members] : [];
    },
    onMembershipChange: (listener: (room: string) => void) => void listeners.push(listener),
  };
  const groups = createRoomGroups({ hub, identities });
  const changed = () => listeners.forEach((listener) => listener(ROOM));
  return {
    groups,
    identities,
    answers,
    listings,
    join: (member: RoomMember) => (members.push(member), changed()),
    leave: (id: string) => (
      members.splice(
        members.findIndex((member) => member.id === id),
        1,
      ),
      changed()
    ),
  };
}

const shape = (groups: { caller: Caller; ids: string[] }[]) =>
  groups.map(({ caller, ids }) => [caller.kind === 'user' ? caller.user.id : caller.kind, ids]);

beforeEach(() => vi.useFakeTimers({ toFake: ['Date'] }));
afterEach(() => vi.useRealTimers());

describe('room groups', () => {
  it('group a room by identity, leave out sockets the app does not admit, and keep it between events', async () => {
    const { groups, listings } = setUp([
      socket('a1', 'alice'),
      socket('b1', 'bob'),
      socket('a2', 'alice'),
      socket('c1', 'carol', false),
    ]);
    expect(shape(await groups.groupsOf(ROOM))).toEqual([
      ['alice', ['a1', 'a2']],
      ['bob', ['b1']],
    ]);
    await groups.groupsOf(ROOM);
    await groups.groupsOf(ROOM);
    expect(listings.count).toBe(1);
  });

  it('follow joins, leaves and disconnects', async () => {
    const { groups, join, leave } = setUp([socket('a1', 'alice')]);
    await groups.groupsOf(ROOM);
    join(socket('b1', 'bob'));
    expect(shape(await groups.groupsOf(ROOM))).toEqual([
      ['alice', ['a1']],
      ['bob', ['b1']],
    ]);
    leave('a1');
    expect(shape(await groups.groupsOf(ROOM))).toEqual([['bob', ['b1']]]);
  });

  it('follow an identity changed by a re-check, and a user write', async () => {
    const members = [socket('a1', 'alice'), socket('b1', 'bob')];
    const { groups, identities, answers } = setUp(members);
    await groups.groupsOf(ROOM);
    answers.set('t-alice', { caller: userCaller('alice', 'admin'), admitted: true });
    await identities.revalidate(members);
    const after = await groups.groupsOf(ROOM);
    expect(after.map(({ caller }) => (caller.kind === 'user' ? caller.user.role : caller.kind))).toEqual([
      'admin',
      'user',
    ]);
    answers.set('t-bob', { caller: userCaller('bob'), admitted: false });
    identities.noteUserWrites(['bob']);
    expect(shape(await groups.groupsOf(ROOM))).toEqual([['alice', ['a1']]]);
  });

  it('work a room out again before its oldest identity leaves the trust window', async () => {
    const { groups, listings } = setUp([socket('a1', 'alice')]);
    await groups.groupsOf(ROOM);
    vi.setSystemTime(Date.now() + REVALIDATE_MS - 1);
    await groups.groupsOf(ROOM);
    expect(listings.count).toBe(1);
    vi.setSystemTime(Date.now() + 1);
    await groups.groupsOf(ROOM);
    expect(listings.count).toBe(2);
  });

  it('keep the groups past the window when every identity was re-checked unchanged, without regrouping', async () => {
    const members = [socket('a1', 'alice'), socket('b1', 'bob')];
    const { groups, identities, listings, answers } = setUp(members);
    const before = await groups.groupsOf(ROOM);
    vi.setSystemTime(Date.now() + REVALIDATE_MS - 1_000);
    await identities.revalidate(members);
    vi.setSystemTime(Date.now() + 2_000);
    expect(await groups.groupsOf(ROOM)).toBe(before);
    expect(listings.count).toBe(1);
    // Past the refreshed window with no new check: worked out again (and re-checked), as before.
    answers.set('t-bob', { caller: userCaller('bob', 'admin'), admitted: true });
    vi.setSystemTime(Date.now() + REVALIDATE_MS);
    const after = await groups.groupsOf(ROOM);
    expect(listings.count).toBe(2);
    expect(after.map(({ caller }) => (caller.kind === 'user' ? caller.user.role : caller.kind))).toEqual([
      'user',
      'admin',
    ]);
  });

  it('do not keep groups whose room changed while they were worked out', async () => {
    const stale = { ...socket('a1', 'alice'), data: { ...socket('a1', 'alice').data, checkedAt: 0 } };
    const { groups, join, listings } = setUp([stale]);
    // The stale identity makes the build wait on a re-check, during which bob joins.
    const building = groups.groupsOf(ROOM);
    join(socket('b1', 'bob'));
    expect(shape(await building)).toEqual([['alice', ['a1']]]);
    expect(shape(await groups.groupsOf(ROOM))).toEqual([
      ['alice', ['a1']],
      ['bob', ['b1']],
    ]);
    expect(listings.count).toBe(2);
  });
});
