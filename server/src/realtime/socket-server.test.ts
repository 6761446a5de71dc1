import { describe, expect, it } from 'vitest';
import { mayJoin, type RoomFamily } from './socket-server';

describe('mayJoin', () => {
  const rooms: RoomFamily[] = [
    { prefix: 'entities:', mayJoin: (appId, room) => room === `entities:${appId}:Todo` },
  ];

  it('lets a registered family decide its own rooms, and refuses any room without a family', () => {
    const conversations: RoomFamily = {
      prefix: 'conversations:',
      mayJoin: (appId, room) => room === `conversations:${appId}:c1`,
    };
    expect(mayJoin('app', 'conversations:app:c1', [...rooms, conversations])).toBe(true);
    expect(mayJoin('app', 'conversations:app:c2', [...rooms, conversations])).toBe(false);
    expect(mayJoin('app', 'conversations:app:c1', rooms)).toBe(false);
    expect(mayJoin('app', 'entities:app:Todo')).toBe(false);
  });
});
