import { describe, expect, it } from 'vitest';
import { mayJoin } from './socket-server';

describe('mayJoin', () => {
  const known = (entity: string) => entity === 'Todo' || entity === 'User';

  it('accepts the rooms of its own app’s known entities only', () => {
    expect(mayJoin('app', 'entities:app:Todo', known)).toBe(true);
    expect(mayJoin('app', 'entities:app:User', known)).toBe(true);
    expect(mayJoin('app', 'entities:app:Nope', known)).toBe(false);
    expect(mayJoin('app', 'entities:other:Todo', known)).toBe(false);
    expect(mayJoin('app', 'entities:app:Todo:extra', known)).toBe(false);
    expect(mayJoin('app', 'agents:app:Todo', known)).toBe(false);
    expect(mayJoin('app', 'entities:app:', known)).toBe(false);
  });
});
