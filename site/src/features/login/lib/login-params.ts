/** LoginParams are what the page's URL asks for: where to return, and a mailed reset or invite token. */
export interface LoginParams {
  fromUrl: string | null;
  resetToken: string | null;
  inviteToken: string | null;
}

/** readLoginParams reads `from_url`, `reset_token` and `invite_token` from a query string. */
export function readLoginParams(search: string): LoginParams {
  const query = new URLSearchParams(search);
  return {
    fromUrl: query.get('from_url') || null,
    resetToken: query.get('reset_token') || null,
    inviteToken: query.get('invite_token') || null,
  };
}

/**
 * withoutMailedTokens is the query string minus the single-use tokens, so a reload or a shared address
 * bar never replays them.
 */
export function withoutMailedTokens(search: string): string {
  const query = new URLSearchParams(search);
  query.delete('reset_token');
  query.delete('invite_token');
  const rest = query.toString();
  return rest ? `?${rest}` : '';
}
