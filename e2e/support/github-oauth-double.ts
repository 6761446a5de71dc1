import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { freePort } from './server-process';

// A small double of GitHub's OAuth 2 sign-in on a free port: `/login/oauth/authorize` checks the client,
// the redirect URI and the PKCE S256 challenge, passes the state through and sends the browser back with a
// code for the account the test chose (`test_account`) or `error=access_denied` (`test_deny`);
// `/login/oauth/access_token` checks the client secret, the code (once), the redirect URI and the PKCE
// verifier, and answers as GitHub does (200 with an `error` body when it refuses); `/user` and `/user/emails`
// answer for the access token's account.

/** GitHubAccount is what GitHub says about a person: the profile and the email list. */
export interface GitHubAccount {
  login: string;
  name?: string;
  /** email is the public profile email (often null on GitHub). */
  email?: string | null;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

/** GitHubDouble is a running double, its accounts and what it saw. */
export interface GitHubDouble {
  url: string;
  clientId: string;
  clientSecret: string;
  /** redirectUri is the one callback the client may use (set once the server's URL is known). */
  redirectUri: string;
  accounts: Map<string, GitHubAccount>;
  /** tokenRequests counts the token endpoint's calls; refusals lists why it refused each refused call. */
  tokenRequests: number;
  refusals: string[];
  close(): Promise<void>;
}

interface Grant {
  account: string;
  challenge: string;
  redirectUri: string;
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** startGitHubDouble starts the double on port (default a free one). */
export async function startGitHubDouble(port?: number): Promise<GitHubDouble> {
  port ??= await freePort();
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, string>();
  const double: GitHubDouble = {
    url: `http://127.0.0.1:${port}`,
    clientId: 'queen-github-client',
    clientSecret: 'queen-github-secret-0123456789',
    redirectUri: '',
    accounts: new Map(),
    tokenRequests: 0,
    refusals: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  function authorize(url: URL, response: ServerResponse) {
    const q = url.searchParams;
    const problem =
      q.get('client_id') !== double.clientId
        ? 'client_id'
        : q.get('redirect_uri') !== double.redirectUri
          ? 'redirect_uri'
          : q.get('response_type') !== 'code'
            ? 'response_type'
            : q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')
              ? 'PKCE'
              : q.get('scope') !== 'read:user user:email'
                ? 'scope'
                : !q.get('state')
                  ? 'state'
                  : undefined;
    if (problem) return send(response, 400, { error: `bad ${problem}` });
    const back = new URL(double.redirectUri);
    back.searchParams.set('state', q.get('state') ?? '');
    const account = q.get('test_account');
    if (q.has('test_deny') || !account || !double.accounts.has(account)) {
      back.searchParams.set('error', 'access_denied');
    } else {
      const code = randomBytes(10).toString('hex');
      grants.set(code, {
        account,
        challenge: q.get('code_challenge') ?? '',
        redirectUri: double.redirectUri,
      });
      back.searchParams.set('code', code);
    }
    response.writeHead(302, { location: back.href });
    response.end();
  }

  async function token(request: IncomingMessage, response: ServerResponse) {
    double.tokenRequests += 1;
    const form = await formOf(request);
    const refuse = (error: string) => {
      double.refusals.push(error);
      // GitHub answers refusals with 200 and an error body.
      send(response, 200, { error, error_description: error });
    };
    if (form.get('client_id') !== double.clientId || form.get('client_secret') !== double.clientSecret) {
      return refuse('incorrect_client_credentials');
    }
    const code = form.get('code') ?? '';
    const grant = grants.get(code);
    grants.delete(code);
    if (!grant) return refuse('bad_verification_code');
    if (form.get('redirect_uri') !== grant.redirectUri) return refuse('redirect_uri_mismatch');
    const verifier = form.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) {
      return refuse('bad_verification_code (PKCE)');
    }
    const accessToken = `gho_${randomBytes(12).toString('hex')}`;
    tokens.set(accessToken, grant.account);
    send(response, 200, { access_token: accessToken, token_type: 'bearer', scope: 'read:user,user:email' });
  }

  function resource(request: IncomingMessage, path: string, response: ServerResponse) {
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const account = double.accounts.get(tokens.get(bearer) ?? '');
    if (!account) return send(response, 401, { message: 'Bad credentials' });
    if (!request.headers['user-agent']) return send(response, 403, { message: 'User-Agent required' });
    if (path === '/user') {
      return send(response, 200, {
        login: account.login,
        id: 1,
        name: account.name ?? null,
        email: account.email ?? null,
      });
    }
    return send(
      response,
      200,
      account.emails.map((entry) => ({ ...entry, visibility: null })),
    );
  }

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', double.url);
    if (request.method === 'GET' && url.pathname === '/login/oauth/authorize')
      return authorize(url, response);
    if (request.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      void token(request, response);
      return;
    }
    if (request.method === 'GET' && (url.pathname === '/user' || url.pathname === '/user/emails')) {
      return resource(request, url.pathname, response);
    }
    send(response, 404, { message: 'Not Found' });
  });
  server.listen(port, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return double;
}

/**
 * atGitHub opens the double's authorize URL as accountId would (or cancels) and returns the callback URL
 * GitHub sends the browser to (not opened yet).
 */
export async function atGitHub(providerUrl: string, accountId: string, deny = false): Promise<string> {
  const url = new URL(providerUrl);
  url.searchParams.set(deny ? 'test_deny' : 'test_account', accountId);
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (response.status !== 302 || !location) {
    throw new Error(`GitHub double answered ${response.status}: ${await response.text()}`);
  }
  return location;
}
