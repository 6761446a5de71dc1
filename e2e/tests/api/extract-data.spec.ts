import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { expect, test } from '../../support/test';
import { AUTH_ENV, api, createUser, failure, uniqueEmail, userClient } from '../../support/auth-helpers';
import { flatePdfOf } from '../../support/documents';
import { DEFAULT_APP_ID } from '../../support/sdk-client';
import { startServer, type RunningServer } from '../../support/server-process';

// Core.ExtractDataFromUploadedFile through the official SDK against a real server: uploaded CSV, XLSX,
// JSON, DOCX and PDF files, a private file through its signed URL, a foreign URL on a host the operator
// trusts (a local double) and the SSRF guard for others, and the size and row caps.
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/extraction');
const EXTRACT = `/api/apps/${DEFAULT_APP_ID}/integration-endpoints/Core/ExtractDataFromUploadedFile`;

type Result = { status: 'success' | 'error'; output?: unknown; details?: string; row_errors?: unknown[] };
type Core = {
  UploadFile(input: { file: File }): Promise<{ file_url: string }>;
  UploadPrivateFile(input: { file: File }): Promise<{ file_uri: string }>;
  CreateFileSignedUrl(input: { file_uri: string }): Promise<{ signed_url: string }>;
  ExtractDataFromUploadedFile(input: { file_url: string; json_schema: object }): Promise<Result>;
};

const item = {
  type: 'object',
  properties: {
    item_name: { type: 'string' },
    quantity: { type: 'integer' },
    unit_price: { type: 'number' },
    packed: { type: 'boolean' },
    bought_on: { type: 'string', format: 'date' },
  },
  required: ['item_name'],
};
const rowsSchema = { type: 'array', items: item };
const wrappedSchema = { type: 'object', properties: { items: { type: 'array', items: item } } };
const textSchema = { type: 'object', properties: { content: { type: 'string' } } };

const GEAR = [
  { item_name: 'Tent', quantity: 1, unit_price: 120.5, packed: true, bought_on: '2026-03-15' },
  { item_name: 'Lantern', quantity: 2, unit_price: 15, packed: false, bought_on: '2026-03-16' },
];
const GEAR_CSV =
  'Item Name;Quantity;Unit Price;Packed;Bought On\nTent;1;120,50;yes;2026-03-15\nLantern;2;15;no;16.03.2026\n';

let server: RunningServer;
let remote: Server;
let remotePort = 0;
let core: Core;

test.beforeAll(async () => {
  // The "foreign" file server: a double on 127.0.0.1 the operator trusts through OUTBOUND_PRIVATE_HOSTS.
  remote = createServer((request, response) => {
    if (request.url === '/gear.csv')
      return void response.writeHead(200, { 'content-type': 'text/csv' }).end(GEAR_CSV);
    if (request.url === '/big.csv') {
      return void response
        .writeHead(200, { 'content-type': 'text/csv' })
        .end('a\n' + 'x'.repeat(1024 * 1024 + 10));
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((ready) => remote.listen(0, '127.0.0.1', ready));
  remotePort = (remote.address() as AddressInfo).port;
  server = await startServer({
    env: {
      ...AUTH_ENV,
      OUTBOUND_PRIVATE_HOSTS: `127.0.0.1:${remotePort}`,
      EXTRACT_MAX_MB: '1',
      EXTRACT_MAX_ROWS: '100',
      INTEGRATION_RATE_LIMIT_PER_MINUTE: '1000',
      INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE: '1000',
    },
  });
  const { token } = await createUser(server, { email: uniqueEmail('extract') });
  core = userClient(server, token).integrations.Core as unknown as Core;
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
  await new Promise((closed) => remote.close(closed));
});

async function upload(bytes: Buffer | string, name: string, type: string): Promise<string> {
  const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  return (await core.UploadFile({ file: new File([new Uint8Array(data)], name, { type }) })).file_url;
}
const fixture = (name: string) => readFile(resolve(FIXTURES, name));

test('an uploaded CSV maps onto an array schema and an {items} schema, values coerced', async () => {
  const file_url = await upload(GEAR_CSV, 'gear.csv', 'text/csv');
  expect(await core.ExtractDataFromUploadedFile({ file_url, json_schema: rowsSchema })).toEqual({
    status: 'success',
    output: GEAR,
  });
  expect(await core.ExtractDataFromUploadedFile({ file_url, json_schema: wrappedSchema })).toEqual({
    status: 'success',
    output: { items: GEAR },
  });
});

test('rows that do not fit are reported with their row numbers; the rest are returned', async () => {
  const file_url = await upload('item name,quantity\nTent,1\nStove,many\n', 'bad.csv', 'text/csv');
  const result = await core.ExtractDataFromUploadedFile({ file_url, json_schema: rowsSchema });
  expect(result).toMatchObject({
    status: 'success',
    output: [{ item_name: 'Tent', quantity: 1 }],
    row_errors: [{ row: 3, field: 'quantity', message: '"many" is not a number' }],
  });
  const none = await upload('sku,colour\n1,red\n', 'other.csv', 'text/csv');
  expect(await core.ExtractDataFromUploadedFile({ file_url: none, json_schema: rowsSchema })).toMatchObject({
    status: 'error',
    details: expect.stringContaining('No column matches the schema fields'),
  });
});

test('an uploaded XLSX (title row, typed cells) and a JSON file map the same way', async () => {
  const xlsx = await upload(
    await fixture('gear.xlsx'),
    'gear.xlsx',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  expect(await core.ExtractDataFromUploadedFile({ file_url: xlsx, json_schema: wrappedSchema })).toEqual({
    status: 'success',
    output: { items: GEAR },
  });
  const json = await upload(
    JSON.stringify({ gear: [{ 'Item name': 'Tent', Quantity: '1', packed: 'x' }] }),
    'gear.json',
    'application/json',
  );
  expect(await core.ExtractDataFromUploadedFile({ file_url: json, json_schema: rowsSchema })).toEqual({
    status: 'success',
    output: [{ item_name: 'Tent', quantity: 1, packed: true }],
  });
});

test('DOCX and PDF give their text to a one-string schema; other schemas need LLM_PROVIDER_URL', async () => {
  const docx = await upload(await fixture('notes.docx'), 'notes.docx', 'application/octet-stream');
  const fromDocx = await core.ExtractDataFromUploadedFile({ file_url: docx, json_schema: textSchema });
  expect(fromDocx.status).toBe('success');
  expect((fromDocx.output as { content: string }).content).toMatch(
    /^Camp packing list\s+Bring a tent and two lanterns\.$/,
  );
  const pdf = await upload(await fixture('invoice.pdf'), 'invoice.pdf', 'application/pdf');
  expect(await core.ExtractDataFromUploadedFile({ file_url: pdf, json_schema: textSchema })).toEqual({
    status: 'success',
    output: { content: 'Invoice 2026-17 total 42.50 EUR' },
  });
  const structured = await core.ExtractDataFromUploadedFile({
    file_url: pdf,
    json_schema: { type: 'object', properties: { number: { type: 'string' }, total: { type: 'number' } } },
  });
  expect(structured).toMatchObject({ status: 'error', details: expect.stringContaining('LLM_PROVIDER_URL') });
});

test('a table in a DOCX maps onto a row schema without an LLM', async () => {
  const docx = await upload(await fixture('gear-table.docx'), 'gear-table.docx', 'application/octet-stream');
  expect(await core.ExtractDataFromUploadedFile({ file_url: docx, json_schema: wrappedSchema })).toEqual({
    status: 'success',
    output: {
      items: [
        { item_name: 'Tent', quantity: 1, unit_price: 120.5 },
        { item_name: 'Lantern & Co', quantity: 2, unit_price: 15 },
      ],
    },
  });
});

test('a private file is read through its signed URL only', async () => {
  const { file_uri } = await core.UploadPrivateFile({
    file: new File([GEAR_CSV], 'private.csv', { type: 'text/csv' }),
  });
  const { signed_url } = await core.CreateFileSignedUrl({ file_uri });
  expect(await core.ExtractDataFromUploadedFile({ file_url: signed_url, json_schema: rowsSchema })).toEqual({
    status: 'success',
    output: GEAR,
  });
  const unsigned = await failure(
    core.ExtractDataFromUploadedFile({ file_url: signed_url.split('?')[0] ?? '', json_schema: rowsSchema }),
  );
  expect(unsigned.status).toBe(403);
  const tampered = signed_url.replace(/signature=./, (match) =>
    match.endsWith('A') ? 'signature=B' : 'signature=A',
  );
  expect(
    (await failure(core.ExtractDataFromUploadedFile({ file_url: tampered, json_schema: rowsSchema }))).status,
  ).toBe(403);
});

test('a foreign URL is fetched through the guard: a trusted host works, private addresses are refused', async () => {
  expect(
    await core.ExtractDataFromUploadedFile({
      file_url: `http://127.0.0.1:${remotePort}/gear.csv`,
      json_schema: rowsSchema,
    }),
  ).toEqual({ status: 'success', output: GEAR });
  for (const file_url of [
    'http://127.0.0.1/x',
    'http://10.0.0.1/x',
    'http://[::1]/x',
    'file:///etc/passwd',
  ]) {
    const refused = await api(server, EXTRACT, { body: { file_url, json_schema: rowsSchema } });
    expect(refused.status, file_url).toBe(400);
    expect(String(refused.json.message), file_url).toMatch(/Refused to fetch|Only http\(s\) URLs/);
  }
});

test('files over EXTRACT_MAX_MB and tables over EXTRACT_MAX_ROWS are refused with the cap named', async () => {
  const big = await upload('name\n' + 'x'.repeat(1024 * 1024 + 10), 'big.csv', 'text/csv');
  const stored = await failure(core.ExtractDataFromUploadedFile({ file_url: big, json_schema: rowsSchema }));
  expect(stored.status).toBe(400);
  expect(stored.message).toContain('larger than the 1 MB this integration reads');
  const remoteBig = await failure(
    core.ExtractDataFromUploadedFile({
      file_url: `http://127.0.0.1:${remotePort}/big.csv`,
      json_schema: rowsSchema,
    }),
  );
  expect(remoteBig.status).toBe(400);
  expect(remoteBig.message).toBe('The file is larger than 1 MB, the most extraction reads (EXTRACT_MAX_MB)');
  const rows = Array.from({ length: 101 }, (_, index) => `Item ${index},1`).join('\n');
  const many = await upload(`item name,quantity\n${rows}\n`, 'many.csv', 'text/csv');
  expect(await core.ExtractDataFromUploadedFile({ file_url: many, json_schema: rowsSchema })).toMatchObject({
    status: 'error',
    details: 'The file has more than 100 data rows, the most this server extracts (EXTRACT_MAX_ROWS)',
  });
});

test('a PDF whose compressed streams unpack past 20 × EXTRACT_MAX_MB is refused before the parser runs', async () => {
  // ~25 KB on disk, 25 MB once inflated: pdf.js would hold it whole (a 1 MB file could ask for 1 GB).
  const content = Buffer.concat([
    Buffer.from('BT /F1 12 Tf 72 720 Td (Invoice 9) Tj ET\n'),
    Buffer.alloc(25 * 1024 * 1024, 0x20),
  ]);
  const bomb = await upload(flatePdfOf(content), 'bomb.pdf', 'application/pdf');
  expect(await core.ExtractDataFromUploadedFile({ file_url: bomb, json_schema: textSchema })).toEqual({
    status: 'error',
    details: "bomb.pdf: The PDF's compressed streams unpack to more than 20 MB, more than extraction reads",
    output: null,
  });
  const small = await upload(flatePdfOf(content.subarray(0, 1024 * 1024)), 'small.pdf', 'application/pdf');
  expect(await core.ExtractDataFromUploadedFile({ file_url: small, json_schema: textSchema })).toEqual({
    status: 'success',
    output: { content: 'Invoice 9' },
  });
});

test('a body without file_url or json_schema is a 400 naming the field', async () => {
  const missing = await api(server, EXTRACT, { body: { file_url: 'x' } });
  expect(missing.status).toBe(400);
  expect(missing.json.message).toBe('json_schema: is required');
  const notFound = await api(server, EXTRACT, {
    body: {
      file_url: `/api/apps/${DEFAULT_APP_ID}/files/public/${'0'.repeat(32)}/gone.csv`,
      json_schema: rowsSchema,
    },
  });
  expect(notFound.status).toBe(404);
});
