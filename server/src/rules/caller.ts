// Who a request is, as far as rules are concerned: the only facts about a caller a rule may read.

/** RuleUser is what rules may read about a signed-in caller. */
export interface RuleUser {
  id: string;
  email: string;
  role: string;
  full_name: string;
  custom: Record<string, unknown>;
}

/** Caller is who a request is: anonymous, a signed-in user, or the service role (which bypasses rules). */
export type Caller = { kind: 'anonymous' } | { kind: 'user'; user: RuleUser } | { kind: 'service' };

/** userCaller is the Caller for a signed-in user: only what rules may read of them. */
export function userCaller(user: RuleUser): Caller {
  const { id, email, role, full_name, custom } = user;
  return { kind: 'user', user: { id, email, role, full_name, custom } };
}
