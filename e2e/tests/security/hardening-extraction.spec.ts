import { expect, test } from '../../support/test';
import { AUTH_ENV, createUser, failure, uniqueEmail, userClient } from '../../support/auth-helpers';
import { flatePdfOf, zipOf } from '../../support/documents';
import { startOpenAiDouble, type OpenAiDouble } from '../../support/openai-double';
import { onThisMachine, slowestAnswerDuring } from '../../support/responsiveness';
import { startServer, type RunningServer } from '../../support/server-process';

// Issue 18, points 1 and 2: a file sent for extraction (or as an InvokeLLM file_urls entry) is parsed in
// the document worker, with its caps applied while it is read, so no file holds the event loop. Each
// attack is one upload and one call with default limits: the answer is a clear `status: 'error'` (or a
// 400), `/healthz` answers within 200 ms throughout, and the server is still up afterwards. Before the
// change each of these held the loop for seconds (the XFD1 sheet at 49,000 rows killed the process).

type Result = { status: 'success' | 'error'; output?: unknown; details?: string; row_errors?: unknown[] };
type Core = {
  UploadFile(input: { file: File }): Promise<{ file_url: string }>;
  ExtractDataFromUploadedFile(input: { file_url: string; json_schema: object }): Promise<Result>;
  InvokeLLM(input: { prompt: string; file_urls: string[] }): Promise<unknown>;
};

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const rowsOf = (properties: Record<string, object>) => ({
  type: 'array',
  items: { type: 'object', properties },
});
const amounts = rowsOf({ amount: { type: 'number' } });

/** xlsxOf is a one-sheet workbook (written by hand: the parts SheetJS needs) around sheetData's rows. */
function xlsxOf(sheetData: string, dimension = ''): Buffer {
  const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const pkg = 'http://schemas.openxmlformats.org/package/2006/relationships';
  return zipOf([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
      ),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(
        `${xml}<Relationships xmlns="${pkg}"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/workbook.xml',
      data: Buffer.from(
        `${xml}<workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from(
        `${xml}<Relationships xmlns="${pkg}"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/worksheets/sheet1.xml',
      data: Buffer.from(
        `${xml}<worksheet xmlns="${main}">${dimension}<sheetData>${sheetData}</sheetData></worksheet>`,
      ),
    },
  ]);
}

const text = (ref: string, value: string) => `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;
/** wideSheet is the probe's sheet: a header, rows of one number, and one cell at XFD1 (the last column). */
const wideSheet = (rows: number) =>
  xlsxOf(
    `<row r="1">${text('A1', 'amount')}<c r="XFD1"><v>1</v></c></row>` +
      Array.from(
        { length: rows },
        (_, index) => `<row r="${index + 2}"><c r="A${index + 2}"><v>${index}</v></c></row>`,
      ).join(''),
  );

let double: OpenAiDouble;
let server: RunningServer;
let core: Core;

test.beforeAll(async () => {
  double = await startOpenAiDouble();
  server = await startServer({
    env: {
      ...AUTH_ENV,
      LLM_PROVIDER_URL: double.baseUrl,
      LLM_API_KEY: 'sk-double',
      INTEGRATION_RATE_LIMIT_PER_MINUTE: '1000',
      INTEGRATION_RATE_LIMIT_PER_USER_PER_MINUTE: '1000',
    },
  });
  const { token } = await createUser(server, { email: uniqueEmail('extract-attack') });
  core = userClient(server, token).integrations.Core as unknown as Core;
});

test.afterAll(async () => {
  expect(await server.stop()).toBe(0);
  await double.close();
});

async function upload(bytes: Buffer | string, name: string, type: string): Promise<string> {
  const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  return (await core.UploadFile({ file: new File([new Uint8Array(data)], name, { type }) })).file_url;
}

/** duringAttack runs call while /healthz is polled: within 200 ms throughout, and up afterwards. */
async function duringAttack<T>(call: Promise<T>): Promise<T> {
  const slowest = await slowestAnswerDuring(server.url, call);
  expect(slowest).toBeLessThanOrEqual(onThisMachine(200));
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  return call;
}

const extract = async (file_url: string, json_schema: object = amounts) =>
  duringAttack(core.ExtractDataFromUploadedFile({ file_url, json_schema }));

test('an XLSX of 5,000 one-number rows and one cell at XFD1 is refused (extraction and InvokeLLM)', async () => {
  const file_url = await upload(wideSheet(5000), 'wide.xlsx', XLSX_TYPE);
  expect(await extract(file_url)).toMatchObject({
    status: 'error',
    details: expect.stringMatching(/cells span 16384 columns \(A to XFD\), more than the 500/),
  });
  const refused = await duringAttack(failure(core.InvokeLLM({ prompt: 'Sum it', file_urls: [file_url] })));
  expect(refused.status).toBe(400);
  expect(refused.message).toMatch(/wide\.xlsx: sheet Sheet1: The sheet's cells span 16384 columns/);
});

test('a narrow sheet that declares a range to XFD still maps: the range is cut to its cells', async () => {
  const file_url = await upload(
    xlsxOf(
      `<row r="1">${text('A1', 'amount')}</row><row r="2"><c r="A2"><v>4.5</v></c></row>`,
      '<dimension ref="A1:XFD2"/>',
    ),
    'ok.xlsx',
    XLSX_TYPE,
  );
  expect(await extract(file_url)).toEqual({ status: 'success', output: [{ amount: 4.5 }] });
});

test('one cell unpacking to 40 MB is refused by the cell cap, off the event loop', async () => {
  const file_url = await upload(
    xlsxOf(
      `<row r="1">${text('A1', 'amount')}</row><row r="2">${text('A2', 'x'.repeat(40 * 1024 * 1024))}</row>`,
    ),
    'cell.xlsx',
    XLSX_TYPE,
  );
  expect(await extract(file_url)).toMatchObject({
    status: 'error',
    details: expect.stringContaining('Row 2, column 1 holds more than 32767 characters'),
  });
});

test('a CSV header of 1 M columns is refused, naming the 500-column cap', async () => {
  const file_url = await upload(`${'c,'.repeat(1_000_000)}amount\n1\n`, 'wide.csv', 'text/csv');
  expect(await extract(file_url)).toMatchObject({
    status: 'error',
    details: expect.stringContaining('more than 500 columns'),
  });
});

test('JSON nested 2 M deep is refused before it is parsed', async () => {
  const file_url = await upload(
    `${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}`,
    'deep.json',
    'application/json',
  );
  expect(await extract(file_url)).toMatchObject({
    status: 'error',
    details: expect.stringContaining('more than 64 levels deep'),
  });
});

test('a PDF Flate bomb, and a PDF of stream headers without their ends, are refused off the loop', async () => {
  const textSchema = { type: 'object', properties: { content: { type: 'string' } } };
  const bomb = await upload(flatePdfOf(Buffer.alloc(256 * 1024 * 1024)), 'bomb.pdf', 'application/pdf');
  expect(await extract(bomb, textSchema)).toMatchObject({
    status: 'error',
    details: "bomb.pdf: The PDF's compressed streams unpack to more than 200 MB, more than extraction reads",
  });
  // Each header without an `endstream` made the guard search (and inflate) to the file's end: O(n²).
  const headers = `%PDF-1.4\n${'1 0 obj << /Filter /FlateDecode >> stream\n'.repeat(50_000)}`;
  const endless = await upload(headers, 'endless.pdf', 'application/pdf');
  expect(await extract(endless, textSchema)).toMatchObject({
    status: 'error',
    details: expect.stringContaining('endless.pdf could not be read'),
  });
});

test('numeric-looking cells: 160 KB is over the cell cap; 30 KB is coerced in linear time and refused', async () => {
  // The probe's cell: digits around a long run of letters, which the old unanchored strip scanned O(n²).
  const cell = (length: number) => `1${'a'.repeat(length)}1`;
  const huge = await upload(`amount\n${cell(160 * 1024)}\n`, 'huge.csv', 'text/csv');
  expect(await extract(huge)).toMatchObject({
    status: 'error',
    details: expect.stringContaining('Row 2, column 1 holds more than 32767 characters'),
  });
  const long = await upload(`amount\n${cell(30_000)}\n5\n`, 'long.csv', 'text/csv');
  expect(await extract(long)).toMatchObject({
    status: 'success',
    output: [{ amount: 5 }],
    row_errors: [{ row: 2, field: 'amount', message: expect.stringContaining('is not a number') }],
  });
});
