import { createContext, useContext } from 'react';
import type { ConsoleApi, ConsoleUser } from '../api/console-api';

/** ConsoleSession is the signed-in admin, the API for their token, and how to end the session. */
export interface ConsoleSession {
  api: ConsoleApi;
  user: ConsoleUser;
  signOut(): void;
}

export const ConsoleSessionContext = createContext<ConsoleSession | null>(null);

/** useConsoleSession returns the signed-in session; pages render only inside one. */
export function useConsoleSession(): ConsoleSession {
  const session = useContext(ConsoleSessionContext);
  if (!session) throw new Error('useConsoleSession outside a console session');
  return session;
}
