import { describe, expect, it } from 'vitest';
import { mayJoin, type RoomFamily } from './socket-server';

describe('mayJoin', () => {
  const joiner = { appId: 'app', identity: null };
  const rooms: RoomFamily[] = [
    { prefix: 'entities:', mayJoin: ({ appId }, room) => room === `entities:${appId}:Todo` },
  ];

  it('lets a registered family decide its own rooms, and refuses any room without a family', async () => {
    const conversations: RoomFamily = {
      prefix: 'conversations:',
      mayJoin: ({ appId }, room) => room === `conversations:${appId}:c1`,
    };
    expect(await mayJoin(joiner, 'conversations:app:c1', [...rooms, conversations])).toBe(true);
    expect(await mayJoin(joiner, 'conversations:app:c2', [...rooms, conversations])).toBe(false);
    expect(await mayJoin(joiner, 'conversations:app:c1', rooms)).toBe(false);
    expect(await mayJoin(joiner, 'entities:app:Todo')).toBe(false);
  });

  it('hands the family the socket’s identity, and a family that fails admits nothing', async () => {
    const owned: RoomFamily = {
      prefix: 'conversations:',
      mayJoin: async ({ identity }, room) => room === `conversations:app:${String(identity)}`,
    };
    expect(await mayJoin({ appId: 'app', identity: 'u1' }, 'conversations:app:u1', [owned])).toBe(true);
    expect(await mayJoin({ appId: 'app', identity: 'u2' }, 'conversations:app:u1', [owned])).toBe(false);
    const failing: RoomFamily = { prefix: 'x:', mayJoin: () => Promise.reject(new Error('down')) };
    expect(await mayJoin(joiner, 'x:1', [failing])).toBe(false);
  });
});
