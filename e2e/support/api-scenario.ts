// One runner for API scenario tables (after PocketBase's ApiScenario): a spec writes each attempt as a row
// (who calls, what request, the status it must get, the error message, what the answer must and must not
// contain or hold, what must
// be stored afterwards and what realtime must deliver) and `apiScenarios` turns every row into a test
// that sends the request to a running server and checks each of those in that order.
import { expect, test } from './test';
import { connectSocket, eventually, received } from './realtime-client';

/** ApiRequest is one HTTP request; `path` is relative to the server's URL. */
export interface ApiRequest {
  method: string;
  path: string;
  /** body is sent as JSON; rawBody is sent as written (malformed or hostile JSON). */
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** ApiAnswer is what the server answered: `json` is the parsed body, or `{}` when it is not JSON. */
export interface ApiAnswer {
  status: number;
  text: string;
  json: Record<string, unknown>;
  headers: Headers;
}

/**
 * Expectation is a check that needs the state before the request: it runs before the request (to read
 * the stored record, to subscribe a socket) and returns the check to run after it.
 */
export type Expectation<Context> = (context: Context) => Promise<(answer: ApiAnswer) => Promise<void>>;

export interface ApiScenario<Context, Caller extends string> {
  /** name says what the row attempts; the test is titled `name (caller → status)`. */
  name: string;
  caller: Caller;
  request: ApiRequest | ((context: Context) => ApiRequest);
  /** status is the one status the caller must get, or the statuses any of which is right. */
  status: number | readonly number[];
  /** message is a part of the error message (the protocol's error shape, `message`) the caller must get. */
  message?: string;
  /** mustContain are texts (or patterns) the answer's body must contain, e.g. a part of the message. */
  mustContain?: readonly (string | RegExp)[] | ((context: Context) => readonly (string | RegExp)[]);
  /** mustNotContain are texts (or patterns) the answer's body must not contain. */
  mustNotContain?: readonly (string | RegExp)[] | ((context: Context) => readonly (string | RegExp)[]);
  /** answer checks the parsed answer beyond status and text (a count, an error's `extra_data`). */
  answer?: (answer: ApiAnswer, context: Context) => void;
  /** stored checks what the store holds afterwards (read as a caller that sees everything). */
  stored?: Expectation<Context>;
  /** realtime checks what a subscribed socket received (or did not) because of the request. */
  realtime?: Expectation<Context>;
}

export interface ApiScenarioRunner<Context, Caller extends string> {
  /** baseUrl is the running server's URL (read when a row runs, after beforeAll started the server). */
  baseUrl: () => string;
  /** headersFor gives the caller's credentials for a row; none by default (every row anonymous). */
  headersFor?: (caller: Caller, context: Context) => Record<string, string>;
  /** setUp makes what each row starts from (fresh records, a unique tag); run once per row; none by default. */
  setUp?: (scenario: ApiScenario<Context, Caller>) => Promise<Context>;
  /** everyAnswer holds the spec's invariants, checked on every row's answer after its own checks. */
  everyAnswer?: (answer: ApiAnswer, scenario: ApiScenario<Context, Caller>) => void;
}

/** sendApiRequest sends one request without following redirects and reads the whole answer. */
export async function sendApiRequest(
  baseUrl: string,
  request: ApiRequest,
  headers: Record<string, string> = {},
): Promise<ApiAnswer> {
  const body = request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    redirect: 'manual',
    headers: {
      ...headers,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...request.headers,
    },
    body,
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON (a page, an empty answer): `text` holds it.
  }
  return { status: response.status, text, json, headers: response.headers };
}

/** bearer is the authorization header for a token; no token, no header (an anonymous caller). */
export function bearer(token: string | undefined): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

const statusTitle = (status: number | readonly number[]) =>
  typeof status === 'number' ? String(status) : status.join(' or ');

function expectContains(text: string, needle: string | RegExp, contains: boolean) {
  const found = typeof needle === 'string' ? text.includes(needle) : needle.test(text);
  expect(
    found,
    `${contains ? 'must contain' : 'must not contain'} ${String(needle)}: ${text.slice(0, 500)}`,
  ).toBe(contains);
}

/** runApiScenario runs one row: set up, arm the expectations, send, then check in the order of the fields. */
export async function runApiScenario<Context, Caller extends string>(
  scenario: ApiScenario<Context, Caller>,
  runner: ApiScenarioRunner<Context, Caller>,
): Promise<ApiAnswer> {
  const context = runner.setUp ? await runner.setUp(scenario) : (undefined as Context);
  const checkStored = await scenario.stored?.(context);
  const checkRealtime = await scenario.realtime?.(context);
  const request = typeof scenario.request === 'function' ? scenario.request(context) : scenario.request;
  const answer = await sendApiRequest(
    runner.baseUrl(),
    request,
    runner.headersFor?.(scenario.caller, context),
  );

  const statuses = typeof scenario.status === 'number' ? [scenario.status] : scenario.status;
  expect(
    statuses,
    `${request.method} ${request.path} → ${answer.status}: ${answer.text.slice(0, 500)}`,
  ).toContain(answer.status);
  if (scenario.message !== undefined) expect(String(answer.json.message)).toContain(scenario.message);
  const resolve = (list: ApiScenario<Context, Caller>['mustContain']) =>
    typeof list === 'function' ? list(context) : (list ?? []);
  for (const needle of resolve(scenario.mustContain)) expectContains(answer.text, needle, true);
  for (const needle of resolve(scenario.mustNotContain)) expectContains(answer.text, needle, false);
  scenario.answer?.(answer, context);
  runner.everyAnswer?.(answer, scenario);
  await checkStored?.(answer);
  await checkRealtime?.(answer);
  return answer;
}

/** apiScenarios declares one test per row, titled `name (caller → status)`. */
export function apiScenarios<Context, Caller extends string>(
  scenarios: readonly ApiScenario<Context, Caller>[],
  runner: ApiScenarioRunner<Context, Caller>,
): void {
  for (const scenario of scenarios) {
    test(`${scenario.name} (${scenario.caller} → ${statusTitle(scenario.status)})`, async () => {
      await runApiScenario(scenario, runner);
    });
  }
}

/** storedUnchanged reads a value before the request and checks it reads the same afterwards. */
export function storedUnchanged<Context>(read: (context: Context) => Promise<unknown>): Expectation<Context> {
  return async (context) => {
    const before = await read(context);
    return async () => expect(await read(context)).toEqual(before);
  };
}

/** storedAfter checks the store after the request only. */
export function storedAfter<Context>(
  check: (context: Context, answer: ApiAnswer) => Promise<void>,
): Expectation<Context> {
  return async (context) => (answer) => check(context, answer);
}

/** RealtimeWatch says which socket watches which room, and what reaching it means. */
export interface RealtimeWatch<Context> {
  serverUrl: () => string;
  room: string;
  /** token is the watching socket's bearer token (undefined: signed out). */
  token?: string | undefined;
  /** probe writes something the room hears, until one reaches the socket: it is then in the room. */
  probe: () => Promise<unknown>;
  /** isProbe tells the probe's payloads apart from the request's. */
  isProbe: (payloadText: string) => boolean;
  /** caused tells whether a payload (its JSON text) came from this row's request. */
  caused: (payloadText: string, context: Context) => boolean;
  /** receives is whether the request must reach the socket (false: nothing it caused, within settleMs). */
  receives: boolean;
  settleMs?: number;
}

/**
 * realtimeDelivery joins a socket to a room before the request (proven by a probe that reaches it) and
 * checks afterwards that what the request caused did, or did not, reach it as `update_model`.
 */
export function realtimeDelivery<Context>(watch: RealtimeWatch<Context>): Expectation<Context> {
  return async (context) => {
    const socket = await connectSocket(watch.serverUrl(), [watch.room], watch.token ?? 'null');
    const payloads = received<unknown>(socket, 'update_model');
    const texts = () => payloads.map((payload) => JSON.stringify(payload));
    const joined = await eventually(
      async () => void (await watch.probe()),
      () => texts().some(watch.isProbe),
      { timeoutMs: 10_000 },
    );
    if (!joined) {
      socket.disconnect();
      throw new Error(`the watching socket never heard a probe in ${watch.room}`);
    }
    return async () => {
      const causedByRequest = () => texts().some((text) => watch.caused(text, context));
      try {
        if (watch.receives) {
          expect(await eventually(async () => undefined, causedByRequest), `delivered to ${watch.room}`).toBe(
            true,
          );
        } else {
          await new Promise((wait) => setTimeout(wait, watch.settleMs ?? 500));
          expect(causedByRequest(), `nothing delivered to ${watch.room}`).toBe(false);
        }
      } finally {
        socket.disconnect();
      }
    };
  };
}
