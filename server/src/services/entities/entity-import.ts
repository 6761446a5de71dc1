import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { InvalidInputError } from '../../lib/errors';
import { parseJsonInput } from '../../lib/safe-input';
import type { PropertySchema } from '../../schemas/entity-project';
import type { EntityDef } from '../../project/project-loader';

/** IMPORT_FILE_LIMIT is the largest import request (32 MB, multipart framing included); more is a 413. */
export const IMPORT_FILE_LIMIT = 32 * 1024 * 1024;
/** MAX_IMPORT_ROWS is the most records one import may hold; more is a 400. */
export const MAX_IMPORT_ROWS = 100_000;
/** MAX_IMPORT_ERRORS is how many problems an import's error report lists (`error_count` has them all). */
export const MAX_IMPORT_ERRORS = 100;
/** IGNORED_FIELDS are the server-stamped fields: an import may carry them (an export re-imported), they are ignored. */
export const IGNORED_FIELDS = new Set([
  'id',
  'created_date',
  'updated_date',
  'created_by',
  'created_by_id',
  'is_sample',
]);

/** CSV_CHUNK_CHARS is how much CSV is parsed between two turns of the event loop (a few ms of work). */
export const CSV_CHUNK_CHARS = 256 * 1024;
/** ROWS_PER_TURN is how many records are coerced between two turns of the event loop. */
export const ROWS_PER_TURN = 5_000;

/** ImportProblem is one entry of an import's error report; row is 1-based (0 = the CSV header). */
export interface ImportProblem {
  row: number;
  field: string | null;
  message: string;
}

/** UploadedFile is the `file` part of a multipart request (read by the route, within IMPORT_FILE_LIMIT). */
export interface UploadedFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

function typesOf(schema: PropertySchema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * coerceCell turns a CSV cell into the value the field's schema type wants: numbers, booleans
 * (true/false, case-insensitive), JSON for objects and arrays, `null` for a nullable non-string field.
 * A cell that fits no type stays a string, so validation names the problem.
 */
export function coerceCell(schema: PropertySchema, cell: string): unknown {
  const types = typesOf(schema);
  if (types.length === 0 || types.includes('string')) return cell;
  const text = cell.trim();
  if (types.includes('null') && text === 'null') return null;
  if ((types.includes('number') || types.includes('integer')) && NUMBER.test(text)) return Number(text);
  if (types.includes('boolean') && /^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  if (types.includes('object') || types.includes('array')) {
    try {
      return parseJsonInput(text, 'The cell');
    } catch {
      return cell;
    }
  }
  return cell;
}

/** ParsedImport is a file's records (raw, before validation) and the problems found while reading it. */
export interface ParsedImport {
  records: Record<string, unknown>[];
  problems: ImportProblem[];
}

function isJson(file: UploadedFile, text: string): boolean {
  if (/\.json$/i.test(file.filename) || /json/i.test(file.contentType)) return true;
  if (/\.csv$/i.test(file.filename)) return false;
  return text.trimStart().startsWith('[');
}

/**
 * parseImportFile reads a CSV file (header row = field names, values coerced by the schema; an empty cell
 * leaves the field out) or a JSON array of objects. Unknown fields are refused (reported; for a CSV
 * once, on row 0); stamp fields are ignored. A file that cannot be read, or has more than
 * MAX_IMPORT_ROWS records, is a 400.
 */
export async function parseImportFile(entity: EntityDef, file: UploadedFile): Promise<ParsedImport> {
  const text = file.content.toString('utf8').replace(/^\uFEFF/, '');
  // No store can hold a NUL (a UTF-8 file cannot carry a lone surrogate).
  if (text.includes('\0')) throw new InvalidInputError('The import file holds a NUL character (\\u0000)');
  const problems: ImportProblem[] = [];
  const unknown = (field: string) => !IGNORED_FIELDS.has(field) && !Object.hasOwn(entity.properties, field);
  const tooMany = (count: number) =>
    new InvalidInputError(`An import takes at most ${MAX_IMPORT_ROWS} rows (got ${count})`);

  if (isJson(file, text)) {
    const value = parseJsonInput(text, 'The import file');
    if (!Array.isArray(value))
      throw new InvalidInputError('A JSON import file must hold an array of records');
    if (value.length > MAX_IMPORT_ROWS) throw tooMany(value.length);
    const records = value.map((item, index) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        problems.push({ row: index + 1, field: null, message: 'The record must be a JSON object' });
        return {};
      }
      const record: Record<string, unknown> = {};
      for (const [field, fieldValue] of Object.entries(item as Record<string, unknown>)) {
        if (unknown(field)) {
          problems.push({
            row: index + 1,
            field,
            message: `Unknown field: ${entity.name} has no field "${field}"`,
          });
        } else if (!IGNORED_FIELDS.has(field)) record[field] = fieldValue;
      }
      return record;
    });
    return { records, problems };
  }

  let rows: string[][];
  try {
    rows = await parseCsv(text);
  } catch (error) {
    throw new InvalidInputError(`The import file is not valid CSV: ${(error as Error).message}`);
  }
  const [header, ...body] = rows;
  if (!header) throw new InvalidInputError('The CSV file is empty: it needs a header row of field names');
  if (body.length > MAX_IMPORT_ROWS) throw tooMany(body.length);
  const names = header.map((name) => name.trim());
  const seen = new Set<string>();
  names.forEach((name) => {
    if (name === '')
      problems.push({ row: 0, field: null, message: 'The CSV header has an empty column name' });
    else if (seen.has(name))
      problems.push({ row: 0, field: name, message: `The CSV header repeats "${name}"` });
    else if (unknown(name)) {
      problems.push({ row: 0, field: name, message: `Unknown field: ${entity.name} has no field "${name}"` });
    }
    seen.add(name);
  });
  const columns = names
    .map((name, index) => ({ name, index, schema: entity.properties[name] }))
    .filter((column) => column.name !== '' && !IGNORED_FIELDS.has(column.name) && column.schema);
  const records: Record<string, unknown>[] = [];
  for (const cells of body) {
    if (records.length % ROWS_PER_TURN === ROWS_PER_TURN - 1) await yieldToEventLoop();
    const record: Record<string, unknown> = {};
    for (const column of columns) {
      const cell = cells[column.index] ?? '';
      if (cell === '' || !column.schema) continue;
      record[column.name] = coerceCell(column.schema, cell);
    }
    records.push(record);
  }
  return { records, problems };
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * parseCsv parses text a chunk at a time, giving the event loop a turn between chunks: a 30 MB file is
 * about a second of parsing, which must not stall every other request meanwhile.
 */
async function parseCsv(text: string): Promise<string[][]> {
  // Loaded on the first import, not at every start.
  const { parse } = await import('csv-parse');
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: false,
    to_line: MAX_IMPORT_ROWS + 2,
  });
  const rows: string[][] = [];
  const collected = (async () => {
    for await (const row of parser) rows.push(row as string[]);
  })();
  // Handled at once: a parse error must not count as an unhandled rejection while chunks are still written.
  collected.catch(() => undefined);
  for (let offset = 0; offset < text.length;) {
    // A parse error (or to_line reached) ends the parser: what is left is not read.
    if (parser.destroyed || parser.writableEnded) break;
    let end = Math.min(offset + CSV_CHUNK_CHARS, text.length);
    // Never split a surrogate pair: the parser encodes each chunk on its own (an emoji would become two U+FFFD).
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    parser.write(text.slice(offset, end));
    offset = end;
    await yieldToEventLoop();
  }
  if (!parser.destroyed && !parser.writableEnded) parser.end();
  await collected;
  return rows;
}

/** fieldOf pulls the field out of a validator message `Error in field <path>: …`. */
export function fieldOf(message: string): { field: string | null; message: string } {
  const match = /^Error in field ([^:]+): (.*)$/s.exec(message);
  return match ? { field: match[1] ?? null, message: match[2] ?? message } : { field: null, message };
}
