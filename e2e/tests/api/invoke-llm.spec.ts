import { expect, test } from '../../support/test';
import {
  AUTH_ENV,
  SERVICE_TOKEN,
  api,
  createUser,
  failure,
  uniqueEmail,
  userClient,
} from '../../support/auth-helpers';
import { docxOf, pdfOf } from '../../support/documents';
import { TINY_PNG } from '../../support/openai-images-double';
import { startOpenAiDouble, USAGE, type OpenAiDouble } from '../../support/openai-double';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';
import { startUpstreamDouble, type UpstreamDouble } from '../../support/upstream-double';

// Core.InvokeLLM and Core.TranscribeAudio through the official SDK against a real server and the
// OpenAI-compatible double: no provider (503), text and schema answers, the repair retry, timeouts and
// provider failures (no key in any answer or log), file_urls (our public and signed private files, an
// image as a data URL, unsupported types, the SSRF guard), web context, sign-in, rate limit and the daily
// token budget, and the usage the operator reads.
const CORE = `/api/apps/${DEFAULT_APP_ID}/integration-endpoints/Core`;
const KEY = 'sk-e2e-secret-provider-key-0123456789';

type Core = {
  InvokeLLM(input: Record<string, unknown>): Promise<unknown>;
  ExtractDataFromUploadedFile(input: { file_url: string; json_schema: object }): Promise<unknown>;
  TranscribeAudio(input: Record<string, unknown>): Promise<unknown>;
  UploadFile(input: { file: File }): Promise<{ file_url: string }>;
  UploadPrivateFile(input: { file: File }): Promise<{ file_uri: string }>;
  CreateFileSignedUrl(input: { file_uri: string }): Promise<{ signed_url: string }>;
};
const coreOf = (server: RunningServer, token?: string) =>
  userClient(server, token).integrations.Core as unknown as Core;
const fileOf = (bytes: Buffer | string, name: string, type: string) =>
  new File([new Uint8Array(typeof bytes === 'string' ? Buffer.from(bytes) : bytes)], name, { type });
const schema = {
  type: 'object',
  properties: { mood: { type: 'string', enum: ['calm', 'tense'] }, score: { type: 'integer', minimum: 3 } },
  required: ['mood', 'score'],
};
const NO_LIMITS = {
  INTEGRATION_RATE_LIMIT_PER_MINUTE: '1000',
  INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE: '1000',
};

let double: OpenAiDouble;
test.beforeAll(async () => {
  double = await startOpenAiDouble();
});
test.afterAll(async () => {
  await double.close();
});

test.describe('without a provider', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer({ env: { ...AUTH_ENV } });
  });
  test.afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  test('InvokeLLM and TranscribeAudio answer 503 naming LLM_PROVIDER_URL; the start-up log says so', async () => {
    for (const name of ['InvokeLLM', 'TranscribeAudio']) {
      const answer = await api(server, `${CORE}/${name}`, { token: SERVICE_TOKEN, body: { prompt: 'hi' } });
      expect(answer.status).toBe(503);
      expect(answer.json.message).toContain('LLM_PROVIDER_URL');
    }
    const error = await failure(coreOf(server).InvokeLLM({ prompt: 'hi' }));
    expect(error.status).toBe(503);
    expect(server.logs()).toContain('InvokeLLM and TranscribeAudio answer 503 until LLM_PROVIDER_URL is set');
  });

  test('ExtractDataFromUploadedFile of a PDF or DOCX with a multi-field schema is status error naming LLM_PROVIDER_URL', async () => {
    const { token } = await createUser(server, { email: uniqueEmail('llm-none') });
    const core = coreOf(server, token);
    const schema = { type: 'object', properties: { number: { type: 'string' }, total: { type: 'number' } } };
    for (const file of [
      fileOf(pdfOf(['Invoice 7 total 3 EUR']), 'invoice.pdf', 'application/pdf'),
      fileOf(docxOf(['Invoice 8 total 4 EUR']), 'invoice.docx', 'application/octet-stream'),
    ]) {
      const { file_url } = await core.UploadFile({ file });
      expect(await core.ExtractDataFromUploadedFile({ file_url, json_schema: schema }), file.name).toEqual({
        status: 'error',
        details: expect.stringContaining('set LLM_PROVIDER_URL'),
        output: null,
      });
    }
  });
});

test.describe('with a provider', () => {
  let server: RunningServer;
  let upstream: UpstreamDouble;
  let core: Core;
  let userId: string;

  test.beforeAll(async () => {
    upstream = await startUpstreamDouble();
    server = await startServer({
      env: {
        ...AUTH_ENV,
        ...NO_LIMITS,
        APP_VISIBILITY: 'public_with_login',
        LLM_PROVIDER_URL: double.baseUrl,
        LLM_API_KEY: KEY,
        LLM_MODEL: 'double-default',
        LLM_MODEL_MAP: 'gemini_3_flash=double-flash',
        LLM_TIMEOUT_MS: '1500',
        WEB_SEARCH_URL: double.searchUrl,
        OUTBOUND_PRIVATE_HOSTS: upstream.hostPort,
      },
    });
    const { token, user } = await createUser(server, { email: uniqueEmail('llm') });
    userId = user.id;
    core = coreOf(server, token);
  });
  test.afterAll(async () => {
    expect(await server.stop()).toBe(0);
    await upstream.close();
  });

  const lastChat = () => double.chats().at(-1) ?? {};

  test('a prompt gets a string; the start-up log names the provider host and model, never the key', async () => {
    expect(await core.InvokeLLM({ prompt: 'Say hello' })).toBe('echo: Say hello');
    const request = double.requests.at(-1);
    expect(request?.authorization).toBe(`Bearer ${KEY}`);
    expect(lastChat().model).toBe('double-default');
    const logs = server.logs();
    expect(logs).toContain(new URL(double.baseUrl).host);
    expect(logs).toContain('double-default');
    expect(logs).not.toContain(KEY);
  });

  test('app model names map through LLM_MODEL_MAP; unknown ones use LLM_MODEL and are logged once', async () => {
    await core.InvokeLLM({ prompt: 'a', model: 'gemini_3_flash' });
    expect(lastChat().model).toBe('double-flash');
    await core.InvokeLLM({ prompt: 'b', model: 'claude_sonnet_4_6' });
    await core.InvokeLLM({ prompt: 'c', model: 'claude_sonnet_4_6' });
    expect(lastChat().model).toBe('double-default');
    // Logs reach the harness a moment after the answer.
    await expect.poll(() => server.logs().split('claude_sonnet_4_6').length - 1).toBe(1);
  });

  test('a response_json_schema gets an object valid against it, asked as structured output', async () => {
    expect(await core.InvokeLLM({ prompt: 'How do I feel?', response_json_schema: schema })).toEqual({
      mood: 'calm',
      score: 3,
    });
    expect(lastChat().response_format).toMatchObject({ type: 'json_schema', json_schema: { schema } });
  });

  test('an answer that does not validate is repaired once, then is a 502 naming what failed', async () => {
    const chatsBefore = double.chats().length;
    expect(await core.InvokeLLM({ prompt: '[invalid-once] mood?', response_json_schema: schema })).toEqual({
      mood: 'calm',
      score: 3,
    });
    expect(double.chats().length - chatsBefore).toBe(2);
    const error = await failure(core.InvokeLLM({ prompt: '[invalid] mood?', response_json_schema: schema }));
    expect(error.status).toBe(502);
    expect(error.message).toContain('did not match response_json_schema after one retry');
    expect(error.message).toContain('not JSON');
  });

  test('a hostile schema is refused before the provider is called (400)', async () => {
    let deep: object = { type: 'string' };
    for (let level = 0; level < 30; level += 1) deep = { type: 'object', properties: { a: deep } };
    const chatsBefore = double.chats().length;
    const error = await failure(core.InvokeLLM({ prompt: 'x', response_json_schema: deep }));
    expect(error.status).toBe(400);
    expect(error.message).toContain('nested deeper');
    expect(double.chats().length).toBe(chatsBefore);
  });

  test('a provider slower than LLM_TIMEOUT_MS is a 504', async () => {
    const error = await failure(core.InvokeLLM({ prompt: '[delay:4000] slow' }));
    expect(error.status).toBe(504);
    expect(error.message).toContain('LLM_TIMEOUT_MS');
  });

  test('a provider 5xx is a 502 with a safe message: the key is in no answer and no log', async () => {
    const answer = await api(server, `${CORE}/InvokeLLM`, {
      token: SERVICE_TOKEN,
      body: { prompt: '[fail] now' },
    });
    expect(answer.status).toBe(502);
    expect(answer.json.message).toBe('The LLM provider failed (HTTP 500)');
    expect(JSON.stringify(answer.json)).not.toContain(KEY);
    await expect.poll(() => server.logs()).toContain('LLM provider failed');
    expect(server.logs()).not.toContain(KEY);
  });

  test('anonymous callers of an app that needs sign-in are refused (401)', async () => {
    const error = await failure(coreOf(server).InvokeLLM({ prompt: 'hi' }));
    expect(error.status).toBe(401);
  });

  test('each call is recorded for the operator: model, caller and tokens', async () => {
    await core.InvokeLLM({ prompt: 'count me', model: 'gemini_3_flash' });
    const usage = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/llm-usage?limit=1`, {
      method: 'GET',
      token: SERVICE_TOKEN,
    });
    expect(usage.status).toBe(200);
    expect((usage.json.items as unknown[])[0]).toMatchObject({
      integration: 'InvokeLLM',
      model: 'double-flash',
      caller_kind: 'user',
      user_id: userId,
      ...USAGE,
    });
    const refused = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/llm-usage`, { method: 'GET' });
    expect(refused.status).toBe(401);
  });

  test('file_urls: our public file and a signed private file are read as text', async () => {
    const { file_url } = await core.UploadFile({ file: fileOf('Tent, 2 people', 'gear.txt', 'text/plain') });
    await core.InvokeLLM({ prompt: 'What gear?', file_urls: [file_url] });
    expect(JSON.stringify(lastChat().messages)).toContain('Tent, 2 people');
    const { file_uri } = await core.UploadPrivateFile({
      file: fileOf('a,b\nsecret-row,2\n', 'private.csv', 'text/csv'),
    });
    const { signed_url } = await core.CreateFileSignedUrl({ file_uri });
    await core.InvokeLLM({ prompt: 'Read it', file_urls: signed_url });
    expect(JSON.stringify(lastChat().messages)).toContain('secret-row');
  });

  test('file_urls: an image reaches the model as a data URL, never a URL of this server', async () => {
    const { file_url } = await core.UploadFile({ file: fileOf(TINY_PNG, 'photo.png', 'image/png') });
    await core.InvokeLLM({ prompt: 'What is in the photo?', file_urls: [file_url] });
    const content = (lastChat().messages as { content: unknown }[]).at(-1)?.content as {
      type: string;
      image_url?: { url: string };
    }[];
    const image = content.find((part) => part.type === 'image_url');
    expect(image?.image_url?.url).toBe(`data:image/png;base64,${TINY_PNG.toString('base64')}`);
    expect(JSON.stringify(lastChat())).not.toContain('127.0.0.1');
  });

  test('file_urls: an unsupported type is a 400 naming the file; a trusted foreign URL is fetched', async () => {
    const { file_url } = await core.UploadFile({
      file: fileOf(Buffer.from([0x00, 0x01, 0x02, 0x03]), 'blob.bin', 'application/octet-stream'),
    });
    const error = await failure(core.InvokeLLM({ prompt: 'x', file_urls: [file_url] }));
    expect(error.status).toBe(400);
    expect(error.message).toContain('blob.bin');
    await core.InvokeLLM({ prompt: 'Foreign', file_urls: [`${upstream.origin}/text`] });
    expect(JSON.stringify(lastChat().messages)).toContain('hello from upstream');
  });

  test('file_urls: private addresses are refused (SSRF guard) before the provider is called', async () => {
    const chatsBefore = double.chats().length;
    for (const url of ['http://127.0.0.1:9/x.png', 'http://10.0.0.1/doc.pdf', 'http://10.255.1.2:8080/a']) {
      const error = await failure(core.InvokeLLM({ prompt: 'x', file_urls: [url] }));
      expect(error.status, url).toBe(400);
      expect(error.message).toContain('Refused to fetch');
    }
    expect(double.chats().length).toBe(chatsBefore);
  });

  test('add_context_from_internet adds the web search results with their URLs', async () => {
    await core.InvokeLLM({ prompt: 'Lake level?', add_context_from_internet: true });
    const sent = JSON.stringify(lastChat().messages);
    expect(sent).toContain('https://news.example/lake');
    expect(sent).toContain('The lake is 2 m high.');
    expect(
      double.requests.some((entry) => entry.path === '/searxng/search' && entry.body.q === 'Lake level?'),
    ).toBe(true);
  });

  test('ExtractDataFromUploadedFile fills a schema from a document through the provider', async () => {
    const { file_url } = await core.UploadFile({
      file: fileOf('Invoice 17 for Ana, total 42.50 EUR', 'invoice.txt', 'text/plain'),
    });
    const invoice = {
      type: 'object',
      properties: { customer: { type: 'string' }, total: { type: 'number' } },
    };
    expect(await core.ExtractDataFromUploadedFile({ file_url, json_schema: invoice })).toEqual({
      status: 'success',
      output: { customer: 'text', total: 1.5 },
    });
    expect(JSON.stringify(lastChat().messages)).toContain('Invoice 17 for Ana');
    expect(lastChat().response_format).toMatchObject({ json_schema: { schema: invoice } });
  });

  // A real PDF and DOCX whose schema is not one text field: their extracted text (never the bytes, never a
  // URL of this server) is the document the model is asked to fill the schema from.
  const invoiceSchema = {
    type: 'object',
    properties: {
      invoice_number: { type: 'string' },
      customer: { type: 'string' },
      total: { type: 'number' },
      paid: { type: 'boolean' },
    },
    required: ['invoice_number', 'customer', 'total', 'paid'],
  };
  const extractionUsage = async () => {
    const usage = await api(server, `/api/apps/${DEFAULT_APP_ID}/admin/llm-usage?limit=1`, {
      method: 'GET',
      token: SERVICE_TOKEN,
    });
    return (usage.json.items as Record<string, unknown>[])[0];
  };
  const expectDocumentSent = (lines: string[], file_url: string) => {
    const sent = JSON.stringify(lastChat().messages);
    for (const line of lines) expect(sent).toContain(line);
    expect(sent).not.toContain('%PDF');
    expect(sent).not.toContain('PK\\u0003');
    expect(sent).not.toContain('word/document.xml');
    expect(sent).not.toContain(file_url);
    expect(sent).not.toContain('127.0.0.1');
  };

  test('ExtractDataFromUploadedFile: a PDF goes to the model as its text; the answer fits the schema; usage is recorded', async () => {
    const lines = ['Invoice INV-2026-88', 'Customer: Ana Lima (Ljubljana)', 'Total due 42.50 EUR, paid'];
    const { file_url } = await core.UploadFile({
      file: fileOf(pdfOf(lines), 'invoice.pdf', 'application/pdf'),
    });
    expect(await core.ExtractDataFromUploadedFile({ file_url, json_schema: invoiceSchema })).toEqual({
      status: 'success',
      output: { invoice_number: 'text', customer: 'text', total: 1.5, paid: true },
    });
    expectDocumentSent(lines, file_url);
    expect(lastChat().response_format).toMatchObject({ json_schema: { schema: invoiceSchema } });
    expect(await extractionUsage()).toMatchObject({
      integration: 'ExtractDataFromUploadedFile',
      model: 'double-default',
      caller_kind: 'user',
      user_id: userId,
      ...USAGE,
    });
  });

  test('ExtractDataFromUploadedFile: a DOCX (sent as a generic binary) goes to the model as its text', async () => {
    const lines = ['Invoice INV-2026-91', 'Customer: Marta & Co <trips>', 'Total due 17 EUR'];
    const { file_url } = await core.UploadFile({
      file: fileOf(docxOf(lines), 'invoice.docx', 'application/octet-stream'),
    });
    expect(await core.ExtractDataFromUploadedFile({ file_url, json_schema: invoiceSchema })).toEqual({
      status: 'success',
      output: { invoice_number: 'text', customer: 'text', total: 1.5, paid: true },
    });
    expectDocumentSent(lines, file_url);
    expect(await extractionUsage()).toMatchObject({ integration: 'ExtractDataFromUploadedFile', ...USAGE });
  });

  test('ExtractDataFromUploadedFile: an array-of-objects schema on a PDF without a table is filled by the model', async () => {
    const lines = ['Packing list', 'Tent for 2 people, 1 piece', 'Lantern, 2 pieces'];
    const { file_url } = await core.UploadFile({ file: fileOf(pdfOf(lines), 'gear.pdf', 'application/pdf') });
    const rows = {
      type: 'array',
      items: {
        type: 'object',
        properties: { item: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
        required: ['item', 'quantity'],
      },
    };
    expect(await core.ExtractDataFromUploadedFile({ file_url, json_schema: rows })).toEqual({
      status: 'success',
      output: [{ item: 'text', quantity: 1 }],
    });
    expectDocumentSent(lines, file_url);
    expect(lastChat().response_format).toMatchObject({ json_schema: { schema: rows } });
  });

  test('ExtractDataFromUploadedFile: a provider failure or an answer that never fits is status error with a safe message', async () => {
    const failing = await core.UploadFile({
      file: fileOf(pdfOf(['Invoice [fail] 1']), 'fail.pdf', 'application/pdf'),
    });
    const failed = await api(server, `${CORE}/ExtractDataFromUploadedFile`, {
      token: SERVICE_TOKEN,
      body: { file_url: failing.file_url, json_schema: invoiceSchema },
    });
    expect(failed.status).toBe(200);
    expect(failed.json).toEqual({
      status: 'error',
      details: 'The LLM provider failed (HTTP 500)',
      output: null,
    });
    expect(JSON.stringify(failed.json)).not.toContain(KEY);
    const chatsBefore = double.chats().length;
    const invalid = await core.UploadFile({
      file: fileOf(docxOf(['Invoice [invalid] 2']), 'invalid.docx', 'application/octet-stream'),
    });
    const result = (await core.ExtractDataFromUploadedFile({
      file_url: invalid.file_url,
      json_schema: invoiceSchema,
    })) as { status: string; details: string };
    expect(result.status).toBe('error');
    expect(result.details).toContain('did not match json_schema after one retry');
    expect(double.chats().length - chatsBefore).toBe(2);
  });

  test('ExtractDataFromUploadedFile: a long document is cut before it reaches the model', async () => {
    const long = `Invoice INV-LONG ${'lorem ipsum '.repeat(25_000)}END-OF-DOCUMENT`;
    const { file_url } = await core.UploadFile({ file: fileOf(long, 'long.txt', 'text/plain') });
    expect(await core.ExtractDataFromUploadedFile({ file_url, json_schema: invoiceSchema })).toMatchObject({
      status: 'success',
    });
    const sent = JSON.stringify(lastChat().messages);
    expect(sent).toContain('Invoice INV-LONG');
    expect(sent).toContain('[… cut]');
    expect(sent).not.toContain('END-OF-DOCUMENT');
    expect(sent.length).toBeLessThan(210_000);
  });

  test('ExtractDataFromUploadedFile: a DOCX whose zip lies about its size is refused before any parser or model', async () => {
    // 60 MB of XML deflated to ~60 KB, its directory declaring 100 bytes: the parsers would inflate it all.
    const bomb = docxOf([], {
      data: Buffer.from(`<w:document>${'x'.repeat(60 * 1024 * 1024)}</w:document>`),
      declaredSize: 100,
    });
    const { file_url } = await core.UploadFile({
      file: fileOf(bomb, 'bomb.docx', 'application/octet-stream'),
    });
    const chatsBefore = double.chats().length;
    expect(await core.ExtractDataFromUploadedFile({ file_url, json_schema: invoiceSchema })).toMatchObject({
      status: 'error',
      details: expect.stringContaining('zip bomb'),
    });
    const error = await failure(core.InvokeLLM({ prompt: 'Summarise', file_urls: [file_url] }));
    expect(error.status).toBe(400);
    expect(error.message).toContain('zip bomb');
    expect(double.chats().length).toBe(chatsBefore);
  });

  test('TranscribeAudio reads the uploaded audio (audio_url, as real apps pass it) and answers the text', async () => {
    const { file_url } = await core.UploadFile({
      file: fileOf(Buffer.from('OggS fake audio bytes'), 'note.ogg', 'audio/ogg'),
    });
    expect(await core.TranscribeAudio({ audio_url: file_url })).toMatch(
      /^transcribed note\.ogg \(\d+ bytes\)$/,
    );
    const sent = double.requests.at(-1);
    expect(sent?.path).toBe('/v1/audio/transcriptions');
    expect(sent?.body.model).toBe('whisper-1');
    const missing = await failure(core.TranscribeAudio({ language: 'en' }));
    expect(missing.status).toBe(400);
    expect(missing.message).toContain('audio_url');
  });

  test('the double streams text and tool calls, and answers tool results (for agents)', async () => {
    const tools = [
      {
        type: 'function',
        function: {
          name: 'list_Todo',
          parameters: { type: 'object', properties: { limit: { type: 'integer' } } },
        },
      },
    ];
    const call = await fetch(`${double.baseUrl}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', tools, messages: [{ role: 'user', content: 'todos? [use-tool]' }] }),
    }).then((response) => response.json() as Promise<{ choices: { message: { tool_calls: unknown[] } }[] }>);
    expect(call.choices[0]?.message.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'list_Todo', arguments: '{"limit":1}' } },
    ]);
    const streamed = await fetch(`${double.baseUrl}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi there' }] }),
    }).then((response) => response.text());
    const result = await fetch(`${double.baseUrl}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'm',
        tools,
        messages: [
          { role: 'user', content: 'todos?' },
          { role: 'tool', tool_call_id: 'call_1', content: '[]' },
        ],
      }),
    }).then((response) => response.json() as Promise<{ choices: { message: { content: string } }[] }>);
    expect(result.choices[0]?.message.content).toBe('tool said: []');
    expect(streamed).toContain('"content":"echo: "');
    expect(streamed.trim().endsWith('data: [DONE]')).toBe(true);
  });
});

test.describe('cost guards', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer({
      env: {
        ...AUTH_ENV,
        LLM_PROVIDER_URL: double.baseUrl,
        LLM_DAILY_TOKEN_BUDGET: '100',
        // The app's whole budget for its users here (shares and the reserve are the hardening spec's).
        LLM_USER_DAILY_TOKENS: '100',
        LLM_IP_DAILY_TOKENS: '100',
        LLM_SERVICE_RESERVE_PERCENT: '0',
        INTEGRATION_RATE_LIMIT_PER_MINUTE: '1000',
        INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE: '3',
      },
    });
  });
  test.afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  // Each call spends 20 tokens (USAGE) of the 100: the rows run in order on one server.
  test('an app public without login admits anonymous callers', async () => {
    expect(await coreOf(server).InvokeLLM({ prompt: 'hi' })).toBe('echo: hi');
  });

  test('a user over the per-user rate limit gets 429 with Retry-After', async () => {
    const { token } = await createUser(server, { email: uniqueEmail('llm-rate') });
    for (let call = 0; call < 3; call += 1) {
      expect((await api(server, `${CORE}/InvokeLLM`, { token, body: { prompt: 'r' } })).status).toBe(200);
    }
    const refused = await api(server, `${CORE}/InvokeLLM`, { token, body: { prompt: 'r' } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('the daily token budget, once spent, is a 429 with Retry-After until midnight UTC', async () => {
    const { token } = await createUser(server, { email: uniqueEmail('llm-budget') });
    expect((await api(server, `${CORE}/InvokeLLM`, { token, body: { prompt: 'b' } })).status).toBe(200);
    const refused = await api(server, `${CORE}/InvokeLLM`, { token, body: { prompt: 'b' } });
    expect(refused.status).toBe(429);
    expect(refused.json.message).toContain('LLM_DAILY_TOKEN_BUDGET');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
  });
});
