import { expect, test } from '../../support/test';
import { AUTH_ENV, api } from '../../support/auth-helpers';
import { startOpenAiDouble, type OpenAiDouble } from '../../support/openai-double';
import { onThisMachine, slowestAnswerDuring } from '../../support/responsiveness';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';

// Callers' JSON schemas and the model's answers to them (issue 18, point 3 and the deep answer of point 12),
// sent anonymously to an app public without login, as the probe did. The probe's schema, 1.7 KB of chained
// `anyOf: [$ref, $ref]` definitions, held the event loop 3.7 s at 20 levels (191 s at 24, then the heap
// died); a 10,000-deep answer against a recursive schema was a 500. Now a schema is measured as the tree it
// expands to (recursion refused) before anything is spent, is compiled and validated in a worker with a
// deadline, and the model's answer is bounded in size, depth and array length before it is parsed.

const CORE = `/api/apps/${DEFAULT_APP_ID}/integration-endpoints/Core`;

/** chainedAnyOf is the probe's schema: each definition is anyOf the next one twice, levels deep. */
function chainedAnyOf(levels: number): Record<string, unknown> {
  const $defs: Record<string, object> = { [`d${levels}`]: { type: 'object', required: ['x'] } };
  for (let level = 0; level < levels; level += 1) {
    $defs[`d${level}`] = { anyOf: [{ $ref: `#/$defs/d${level + 1}` }, { $ref: `#/$defs/d${level + 1}` }] };
  }
  return { $ref: '#/$defs/d0', $defs };
}

/** nestedArrays is a schema for arrays of arrays to any depth: recursive through its definition. */
const nestedArrays = {
  $defs: { nest: { type: 'array', items: { $ref: '#/$defs/nest' } } },
  $ref: '#/$defs/nest',
};

let double: OpenAiDouble;
let server: RunningServer;

test.beforeAll(async () => {
  double = await startOpenAiDouble();
  server = await startServer({
    env: {
      ...AUTH_ENV,
      APP_VISIBILITY: 'public_without_login',
      INTEGRATION_RATE_LIMIT_PER_MINUTE: '1000',
      LLM_PROVIDER_URL: double.baseUrl,
      LLM_TIMEOUT_MS: '10000',
    },
  });
});
test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
  await double.close();
});

/** invoke sends InvokeLLM anonymously; the double reads the prompt's `[answer-…]` script. */
const invoke = (prompt: string, schema: object) =>
  api(server, `${CORE}/InvokeLLM`, { body: { prompt, response_json_schema: schema } });

/** duringAttack runs attack with /healthz polled throughout: it must answer within 200 ms every time. */
async function duringAttack<T>(attack: () => Promise<T>): Promise<T> {
  const running = attack();
  expect(await slowestAnswerDuring(server.url, running)).toBeLessThan(onThisMachine(200));
  const answer = await running;
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  return answer;
}

test("the probe's chained anyOf/$ref schema (1.7 KB, 20 levels) is refused with a 400 before the model is asked, /healthz answering", async () => {
  const schema = chainedAnyOf(20);
  expect(JSON.stringify(schema).length).toBeLessThan(1_800);
  const chats = double.chats().length;
  const answer = await duringAttack(() => invoke('fill it', schema));
  expect(answer.status).toBe(400);
  expect(answer.json.message).toContain(
    'response_json_schema expands to more than 10000 subschemas (each $ref counted as the schema it points to)',
  );
  expect(double.chats().length).toBe(chats);
});

test("ExtractDataFromUploadedFile's json_schema gets the same bound (400 before the file is read)", async () => {
  const answer = await duringAttack(() =>
    api(server, `${CORE}/ExtractDataFromUploadedFile`, {
      body: { file_url: `${server.url}/no/such/file.pdf`, json_schema: chainedAnyOf(24) },
    }),
  );
  expect(answer.status).toBe(400);
  expect(answer.json.message).toContain('json_schema expands to more than 10000 subschemas');
});

test('a recursive schema is refused with a 400 (the 10,000-deep answer it would have validated is never asked for)', async () => {
  const chats = double.chats().length;
  const answer = await duringAttack(() => invoke('[answer-deep:10000] nest', nestedArrays));
  expect(answer.status).toBe(400);
  expect(answer.json.message).toContain('response_json_schema is recursive');
  expect(double.chats().length).toBe(chats);
});

test('a model answer nested 10,000 deep is a 502 saying so, not a 500, /healthz answering', async () => {
  const answer = await duringAttack(() => invoke('[answer-deep:10000] nest', { type: 'array' }));
  expect(answer.status).toBe(502);
  expect(answer.json.message).toBe(
    "The model's answer was refused unchecked: the answer nests arrays and objects deeper than 64 levels",
  );
});

test('a model answer with a too-long array, or too large, is refused before validation (502)', async () => {
  const items = await duringAttack(() =>
    invoke('[answer-items:50000] count', { type: 'array', items: { type: 'integer' } }),
  );
  expect(items.status).toBe(502);
  expect(items.json.message).toContain('the answer has an array of more than 10000 items');
  const large = await duringAttack(() => invoke('[answer-chars:1200000] write', { type: 'string' }));
  expect(large.status).toBe(502);
  expect(large.json.message).toContain('the answer is longer than 1000000 characters');
});

test('real schemas still work: $defs used twice, arrays at the limits', async () => {
  const address = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
  const schema = {
    type: 'object',
    $defs: { address },
    properties: { home: { $ref: '#/$defs/address' }, work: { $ref: '#/$defs/address' } },
    required: ['home', 'work'],
  };
  const answer = await invoke('where?', schema);
  expect(answer.status).toBe(200);
  expect(answer.json).toEqual({ home: { city: 'text' }, work: { city: 'text' } });
  const list = await invoke('[answer-items:10000] count', { type: 'array', items: { type: 'integer' } });
  expect(list.status).toBe(200);
  expect(list.json).toHaveLength(10_000);
});
