import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RoomMember } from '../../realtime/realtime-hub';
import type { Caller } from '../../rules/caller';
import type { SocketAccess } from '../identity/app-access';
import { createSocketIdentities, REVALIDATE_MS, SWEEP_MS } from './socket-identities';

const userCaller = (id: string): Caller => ({
  kind: 'user',
  user: { id, email: `${id}@x.test`, role: 'user', full_name: '', custom: {} },
});

/** fleet is users × socketsPerUser sockets, each user's sockets on that user's token, checked at checkedAt. */
function fleet(users: number, socketsPerUser: number, checkedAt: number): RoomMember[] {
  const sockets: RoomMember[] = [];
  for (let u = 0; u < users; u += 1) {
    for (let s = 0; s < socketsPerUser; s += 1) {
      const identity = userCaller(`u${u}`);
      sockets.push({
        id: `u${u}-s${s}`,
        data: { appId: 'app', token: `t-u${u}`, identity, admitted: true, checkedAt },
      });
    }
  }
  return sockets;
}

/** resolver answers each token from answers (default: the user it names, admitted), counting calls and tokens. */
function resolver(answers: Map<string, SocketAccess> = new Map()) {
  const calls: number[] = [];
  let failing = false;
  return {
    calls,
    fail: (value: boolean) => void (failing = value),
    identifyMany: async (_app: string, tokens: readonly string[]) => {
      calls.push(tokens.length);
      if (failing) throw new Error('database unavailable');
      return new Map(
        tokens.map((token) => [
          token,
          answers.get(token) ?? { caller: userCaller(token.slice(2)), admitted: true },
        ]),
      );
    },
  };
}

beforeEach(() => vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval', 'setImmediate'] }));
afterEach(() => vi.useRealTimers());

describe('socket identities', () => {
  it('trust a fresh identity without a check, and re-check stale ones together in batches of users', async () => {
    const { calls, identifyMany } = resolver();
    const identities = createSocketIdentities({ identifyMany });
    const fresh = fleet(3, 2, Date.now());
    expect(await identities.callersOf(fresh)).toEqual(fresh.map((socket) => socket.data.identity));
    expect(calls).toEqual([]);
    // 600 users × 2 sockets (a token each) past the window: two checks of at most 500 distinct tokens, not
    // 1,200 one by one, nor a token sent twice.
    const stale = fleet(600, 2, Date.now() - REVALIDATE_MS);
    await identities.callersOf(stale);
    expect(calls).toEqual([500, 100]);
    expect(stale.every((socket) => identities.trusted(socket) !== null)).toBe(true);
  });

  it('keep the sockets of one token in one check, and close a check before it passes 5,000 sockets', async () => {
    const { calls, identifyMany } = resolver();
    const identities = createSocketIdentities({ identifyMany });
    const stale = fleet(3, 2_000, Date.now() - REVALIDATE_MS);
    await identities.callersOf(stale);
    expect(calls).toEqual([2, 1]);
    expect(stale.every((socket) => identities.trusted(socket) !== null)).toBe(true);
  });

  it('re-check in the background before the window ends, so a delivery finds them checked', async () => {
    const sockets = fleet(10, 3, Date.now());
    const { calls, identifyMany } = resolver();
    const identities = createSocketIdentities({ identifyMany, sockets: () => sockets });
    try {
      // Checked once when 15 s old, so never past 30 s: the deliveries after that wait on nothing.
      // (30 sockets, on 10 users' tokens.)
      await vi.advanceTimersByTimeAsync(REVALIDATE_MS - 2 * SWEEP_MS);
      expect(calls).toEqual([10]);
      await identities.callersOf(sockets);
      await vi.advanceTimersByTimeAsync(SWEEP_MS);
      await identities.callersOf(sockets);
      expect(calls).toEqual([10]);
      // And again 15 s after that check, before the 30 s window ends.
      await vi.advanceTimersByTimeAsync(SWEEP_MS);
      expect(calls).toEqual([10, 10]);
    } finally {
      identities.stop();
    }
  });

  it("stop a disabled user's deliveries within the window, through the sweep alone", async () => {
    const sockets = fleet(2, 2, Date.now());
    const answers = new Map<string, SocketAccess>([
      ['t-u0', { caller: { kind: 'anonymous' }, admitted: true }],
    ]);
    const identities = createSocketIdentities({ ...resolver(answers), sockets: () => sockets });
    try {
      await vi.advanceTimersByTimeAsync(REVALIDATE_MS - SWEEP_MS);
      const callers = await identities.callersOf(sockets);
      expect(callers.map((caller) => caller.kind)).toEqual(['anonymous', 'anonymous', 'user', 'user']);
    } finally {
      identities.stop();
    }
  });

  it("re-check a written user's sockets at once, before any delivery, and only theirs", async () => {
    const sockets = fleet(3, 2, Date.now());
    const { calls, identifyMany } = resolver();
    const identities = createSocketIdentities({ identifyMany, sockets: () => sockets });
    try {
      identities.noteUserWrites(['u1']);
      expect(identities.trusted(sockets[2] as RoomMember)).toBeNull();
      expect(identities.trusted(sockets[0] as RoomMember)).not.toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      // u1's two sockets, on one token.
      expect(calls).toEqual([1]);
      expect(identities.trusted(sockets[2] as RoomMember)).not.toBeNull();
    } finally {
      identities.stop();
    }
  });

  it('fail closed: a socket that cannot be checked is anonymous until a check succeeds', async () => {
    const sockets = fleet(1, 2, Date.now() - REVALIDATE_MS);
    const { fail, identifyMany } = resolver();
    const warned: object[] = [];
    const identities = createSocketIdentities({
      identifyMany,
      log: { warn: (details) => warned.push(details) },
    });
    fail(true);
    expect((await identities.callersOf(sockets)).map((caller) => caller.kind)).toEqual([
      'anonymous',
      'anonymous',
    ]);
    expect(warned).toHaveLength(1);
    fail(false);
    expect((await identities.callersOf(sockets)).map((caller) => caller.kind)).toEqual(['user', 'user']);
  });

  it('share a running check with a delivery that needs the same sockets', async () => {
    const sockets = fleet(2, 1, Date.now() - REVALIDATE_MS);
    const { calls, identifyMany } = resolver();
    const identities = createSocketIdentities({ identifyMany });
    await Promise.all([
      identities.callersOf(sockets),
      identities.callersOf(sockets),
      identities.revalidate(sockets),
    ]);
    expect(calls).toEqual([2]);
  });

  it('deliver as a check found a socket even when its user is written again while the check runs', async () => {
    const sockets = fleet(1, 1, Date.now() - REVALIDATE_MS);
    const fresh = fleet(1, 1, Date.now()).map((socket) => ({
      ...socket,
      id: 'fresh',
      data: { ...socket.data },
    }));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const identities = createSocketIdentities({
      identifyMany: async (_app, tokens) => {
        await gate;
        return new Map(
          tokens.map((token) => [token, { caller: userCaller(token.slice(2)), admitted: true }]),
        );
      },
    });
    const delivery = identities.callersOf([...sockets, ...fresh]);
    identities.noteUserWrites(['u0']);
    release();
    expect((await delivery).map((caller) => caller.kind)).toEqual(['user', 'user']);
  });

  it('do not trust a socket whose token the resolver left unanswered', async () => {
    const sockets = fleet(1, 1, Date.now() - REVALIDATE_MS);
    const identities = createSocketIdentities({ identifyMany: async () => new Map() });
    expect((await identities.callersOf(sockets)).map((caller) => caller.kind)).toEqual(['anonymous']);
    expect(sockets[0]?.data.admitted).toBe(false);
  });
});
