import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import type { FileBytes } from '../files/file-reader';
import { createExtractionService, type StructuredExtractor } from './extraction-service';
import { guessDelimiter } from './read-table';

const FIXTURES = resolve(import.meta.dirname, '../../../../e2e/fixtures/extraction');

const item = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    quantity: { type: 'integer' },
    price: { type: 'number' },
    packed: { type: 'boolean' },
    bought_on: { type: 'string', format: 'date' },
  },
  required: ['name'],
};
const listSchema = { type: 'array', items: item };
const wrappedSchema = { type: 'object', properties: { items: { type: 'array', items: item } } };

function serviceFor(
  file: FileBytes,
  options: { maxRows?: number; maxBytes?: number; structured?: StructuredExtractor } = {},
) {
  return createExtractionService({
    readFileUrl: async () => file,
    limits: {
      maxBytes: options.maxBytes ?? 1024 * 1024,
      maxRows: options.maxRows ?? 100,
      fetchTimeoutMs: 1000,
    },
    structured: options.structured,
  });
}

const csv = (text: string, filename = 'items.csv'): FileBytes => ({
  bytes: Buffer.from(text),
  contentType: 'text/csv',
  filename,
  source: 'stored',
});

describe('extraction of tables', () => {
  it('maps CSV columns by name and coerces values, for both schema shapes', async () => {
    const file = csv(
      '\uFEFFName,Qty,Price,Packed?,Bought On,Notes\nTent,1,"1,234.50",yes,2026-03-15,big\nLamp,2,9.5,no,15.03.2026,\n',
    );
    const expected = [
      { name: 'Tent', price: 1234.5, packed: true, bought_on: '2026-03-15' },
      { name: 'Lamp', price: 9.5, packed: false, bought_on: '2026-03-15' },
    ];
    // "Qty" is not "quantity": no match, so the field is left out rather than guessed.
    expect(await serviceFor(file).extract('app', { file_url: 'x', json_schema: listSchema })).toEqual({
      status: 'success',
      output: expected,
    });
    expect(await serviceFor(file).extract('app', { file_url: 'x', json_schema: wrappedSchema })).toEqual({
      status: 'success',
      output: { items: expected },
    });
  });

  it('reads semicolon CSV with decimal commas, and reports rows that do not fit', async () => {
    expect(guessDelimiter('a;b;c\n1;2;3')).toBe(';');
    const file = csv('name;quantity;price\nTent;1;12,50\nLamp;two;3\n;;\nStove;3;4\n');
    const result = await serviceFor(file).extract('app', { file_url: 'x', json_schema: listSchema });
    expect(result).toMatchObject({
      status: 'success',
      output: [
        { name: 'Tent', quantity: 1, price: 12.5 },
        { name: 'Stove', quantity: 3, price: 4 },
      ],
      details: expect.stringContaining('row 3 quantity'),
      row_errors: [{ row: 3, field: 'quantity', message: '"two" is not a number' }],
    });
  });

  it('answers an error when no column matches, naming the columns', async () => {
    const result = await serviceFor(csv('sku,colour\n1,red\n')).extract('app', {
      file_url: 'x',
      json_schema: listSchema,
    });
    expect(result).toMatchObject({
      status: 'error',
      details: expect.stringMatching(/No column matches.*sku, colour/),
    });
  });

  it('refuses files over the row cap with the setting named', async () => {
    const rows = Array.from({ length: 6 }, (_, index) => `Item ${index},1`).join('\n');
    const result = await serviceFor(csv(`name,quantity\n${rows}\n`), { maxRows: 5 }).extract('app', {
      file_url: 'x',
      json_schema: listSchema,
    });
    expect(result).toMatchObject({ status: 'error', details: expect.stringContaining('EXTRACT_MAX_ROWS') });
  });

  it('refuses a workbook that unpacks to more than 20 times EXTRACT_MAX_MB before parsing it', async () => {
    const grid = Array.from({ length: 5000 }, (_, index) => [`row ${index}`, 'x'.repeat(60)]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(grid), 'S');
    const bytes = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
    const file: FileBytes = {
      bytes,
      contentType: 'application/octet-stream',
      filename: 'b.xlsx',
      source: 'stored',
    };
    expect(
      await serviceFor(file, { maxBytes: 10 * 1024 }).extract('app', {
        file_url: 'x',
        json_schema: listSchema,
      }),
    ).toEqual({
      status: 'error',
      details: 'The file unpacks to more than 200 KB, more than extraction reads',
      output: null,
    });
  });

  it('reads XLSX with typed cells and JSON arrays', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['Shopping list'],
      ['Name', 'Quantity', 'Price', 'Packed', 'Bought on'],
      ['Tent', 1, 120, true, new Date(Date.UTC(2026, 2, 15))],
    ]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'List');
    const xlsx: FileBytes = {
      bytes: XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer,
      contentType: 'application/octet-stream',
      filename: 'list.xlsx',
      source: 'stored',
    };
    expect(await serviceFor(xlsx).extract('app', { file_url: 'x', json_schema: listSchema })).toEqual({
      status: 'success',
      output: [{ name: 'Tent', quantity: 1, price: 120, packed: true, bought_on: '2026-03-15' }],
    });
    const json: FileBytes = {
      bytes: Buffer.from(JSON.stringify({ data: [{ Name: 'Lamp', Quantity: '2' }] })),
      contentType: 'application/json',
      filename: 'list.json',
      source: 'remote',
    };
    expect(await serviceFor(json).extract('app', { file_url: 'x', json_schema: wrappedSchema })).toEqual({
      status: 'success',
      output: { items: [{ name: 'Lamp', quantity: 2 }] },
    });
  });
});

describe('extraction of documents', () => {
  const pdf = async (): Promise<FileBytes> => ({
    bytes: await readFile(`${FIXTURES}/invoice.pdf`),
    contentType: 'application/pdf',
    filename: 'invoice.pdf',
    source: 'stored',
  });

  it('fills a one-string schema with the text of a PDF or DOCX', async () => {
    const schema = { type: 'object', properties: { content: { type: 'string' } } };
    expect(await serviceFor(await pdf()).extract('app', { file_url: 'x', json_schema: schema })).toEqual({
      status: 'success',
      output: { content: 'Invoice 2026-17 total 42.50 EUR' },
    });
    const docx: FileBytes = {
      bytes: await readFile(`${FIXTURES}/notes.docx`),
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      filename: 'notes.docx',
      source: 'stored',
    };
    const result = await serviceFor(docx).extract('app', { file_url: 'x', json_schema: schema });
    expect(result).toMatchObject({
      status: 'success',
      output: { content: expect.stringContaining('two lanterns') },
    });
  });

  it('sends other schemas to the LLM when there is one, else names LLM_PROVIDER_URL', async () => {
    const schema = { type: 'object', properties: { number: { type: 'string' }, total: { type: 'number' } } };
    expect(
      await serviceFor(await pdf()).extract('app', { file_url: 'x', json_schema: schema }),
    ).toMatchObject({
      status: 'error',
      details: expect.stringContaining('LLM_PROVIDER_URL'),
    });
    const structured: StructuredExtractor = async (text) => ({ number: text.split(' ')[1], total: 42.5 });
    expect(
      await serviceFor(await pdf(), { structured }).extract('app', { file_url: 'x', json_schema: schema }),
    ).toEqual({ status: 'success', output: { number: '2026-17', total: 42.5 } });
  });

  it('maps a Word table onto a row schema without an LLM', async () => {
    const docx: FileBytes = {
      bytes: await readFile(`${FIXTURES}/gear-table.docx`),
      contentType: 'application/octet-stream',
      filename: 'gear.docx',
      source: 'stored',
    };
    const schema = {
      type: 'array',
      items: {
        type: 'object',
        properties: { item_name: { type: 'string' }, unit_price: { type: 'number' } },
      },
    };
    expect(await serviceFor(docx).extract('app', { file_url: 'x', json_schema: schema })).toEqual({
      status: 'success',
      output: [
        { item_name: 'Tent', unit_price: 120.5 },
        { item_name: 'Lantern & Co', unit_price: 15 },
      ],
    });
  });

  it('names the type of a file it cannot read', async () => {
    const png: FileBytes = {
      bytes: Buffer.from('89504e470d0a1a0a', 'hex'),
      contentType: 'image/png',
      filename: 'photo.png',
      source: 'stored',
    };
    expect(await serviceFor(png).extract('app', { file_url: 'x', json_schema: listSchema })).toMatchObject({
      status: 'error',
      details: expect.stringContaining('photo.png (image/png)'),
    });
  });
});
