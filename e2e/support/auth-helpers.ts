import { createClient, type Base44Error } from '@base44/sdk';
import { DEFAULT_APP_ID } from './sdk-client';
import { mailsTo, otpFrom, waitForMail } from './outbox';
import type { RunningServer } from './server-process';

/** SERVICE_TOKEN is the service-role token test servers are started with. */
export const SERVICE_TOKEN = 'e2e-service-token-0123456789abcdefghijklmnopqrstuvwxyz';

/** AUTH_ENV starts a server with a known service token and limits high enough for a whole spec file. */
export const AUTH_ENV: Record<string, string> = {
  SERVICE_TOKEN,
  AUTH_RATE_LIMIT_IP: '100000',
  AUTH_RATE_LIMIT_ACCOUNT: '100000',
};

/** PASSWORD is a valid password for test accounts. */
export const PASSWORD = 'correct horse battery';

let counter = 0;
/** uniqueEmail returns a fresh address for one test. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now()}-${counter}@example.test`;
}

/** userClient is the SDK as a Node app uses it, optionally signed in with token. */
export function userClient(server: RunningServer, token?: string, appId = DEFAULT_APP_ID) {
  return createClient({ serverUrl: server.url, appId, requiresAuth: false, ...(token ? { token } : {}) });
}

/** serviceClient is the SDK with the service-role token (and a user token for on-behalf-of). */
export function serviceClient(server: RunningServer, serviceToken = SERVICE_TOKEN, token?: string) {
  return createClient({
    serverUrl: server.url,
    appId: DEFAULT_APP_ID,
    serviceToken,
    requiresAuth: false,
    ...(token ? { token } : {}),
  });
}

/** failure awaits a call expected to fail and returns its Base44Error. */
export async function failure(call: Promise<unknown>): Promise<Base44Error> {
  const outcome = await call.then(
    () => null,
    (error: unknown) => error as Base44Error,
  );
  if (!outcome) throw new Error('expected the call to fail');
  return outcome;
}

/** signUp registers through the SDK, reads the code from the outbox and verifies it. */
export async function signUp(server: RunningServer, email: string, password = PASSWORD) {
  const client = userClient(server);
  const seen = (await mailsTo(server.dataDir, email)).length;
  await client.auth.register({ email, password });
  const code = otpFrom(await waitForMail(server.dataDir, email, seen));
  const verified = (await client.auth.verifyOtp({ email, otpCode: code })) as {
    access_token: string;
    user: { id: string; email: string; role: string };
  };
  return { token: verified.access_token, user: verified.user };
}

/** api sends a raw JSON request, for what the SDK cannot express (malformed bodies, headers). */
export async function api(
  server: RunningServer,
  path: string,
  init: { method?: string; body?: unknown; token?: string; rawBody?: string } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  const response = await fetch(`${server.url}${path}`, { method: init.method ?? 'POST', headers, body });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { text };
  }
  return { status: response.status, headers: response.headers, json };
}

/** createUser adds a verified, approved user through the operator API (service role). */
export async function createUser(
  server: RunningServer,
  input: { email: string; password?: string; role?: 'admin' | 'user' },
) {
  const result = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/users`, {
    token: SERVICE_TOKEN,
    body: { email: input.email, password: input.password ?? PASSWORD, role: input.role ?? 'user' },
  });
  if (result.status !== 201) throw new Error(`createUser: ${result.status} ${JSON.stringify(result.json)}`);
  const login = await userClient(server).auth.loginViaEmailPassword(input.email, input.password ?? PASSWORD);
  return { token: login.access_token, user: login.user as { id: string; email: string; role: string } };
}
