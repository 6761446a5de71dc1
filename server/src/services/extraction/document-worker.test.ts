import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { FileBytes } from '../files/file-reader';
import {
  documentWorkerPeak,
  MAX_DOCUMENT_WORKERS,
  MAX_WAITING_DOCUMENTS,
  runDocumentTask,
} from './document-worker';
import { DEFAULT_ZIP_LIMITS } from './zip-guard';

/** storedDocx is a DOCX (a zip of stored parts) with one paragraph per line. */
function storedDocx(lines: string[]): Buffer {
  const paragraphs = lines.map((line) => `<w:p><w:r><w:t>${line}</w:t></w:r></w:p>`).join('');
  const parts: [string, string][] = [
    [
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>',
    ],
    [
      '_rels/.rels',
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ],
    [
      'word/document.xml',
      `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs}</w:body></w:document>`,
    ],
  ];
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of parts) {
    const data = Buffer.from(text);
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(10, 6);
    entry.writeUInt32LE(crc32(data), 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(fileName.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    central.push(entry, fileName);
    offset += 30 + fileName.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const docxFile = (bytes: Buffer): FileBytes => ({
  bytes,
  filename: 'trip.docx',
  contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  source: 'stored',
});
const limits = { maxRows: 100, maxPages: 10, zip: DEFAULT_ZIP_LIMITS };
const textOf = (bytes: Buffer, options: { timeoutMs?: number; heapMb?: number } = {}) =>
  runDocumentTask({ task: 'text', file: docxFile(bytes), limits }, { what: 'The document', ...options });

describe('runDocumentTask', () => {
  it('reads a DOCX as text, or its tables as rows, off the main thread', async () => {
    const docx = storedDocx(['Trip to Bled', 'Guide Marta']);
    expect(await textOf(docx)).toEqual({ kind: 'text', text: 'Trip to Bled\n\nGuide Marta' });
    const row = { properties: { name: { type: 'string' } }, required: [] };
    expect(await runDocumentTask({ task: 'rows', file: docxFile(docx), row, limits }, { what: 'x' })).toEqual(
      {
        kind: 'document',
      },
    );
    await expect(textOf(Buffer.from('PK\u0003\u0004 not a zip', 'latin1'))).rejects.toThrow(
      'no zip directory',
    );
  });

  it('reads at most MAX_DOCUMENT_WORKERS documents at once; the others wait their turn', async () => {
    const docx = storedDocx(['One line']);
    const reads = Array.from({ length: 5 }, () => textOf(docx));
    expect(await Promise.all(reads)).toEqual(Array(5).fill({ kind: 'text', text: 'One line' }));
    expect(documentWorkerPeak()).toBe(MAX_DOCUMENT_WORKERS);
  });

  it('refuses a document past MAX_WAITING_DOCUMENTS waiting with a 429, and reads the others', async () => {
    const docx = storedDocx(['One line']);
    const reads = Array.from({ length: MAX_DOCUMENT_WORKERS + MAX_WAITING_DOCUMENTS }, () => textOf(docx));
    await expect(textOf(docx)).rejects.toMatchObject({ name: 'TooManyRequestsError' });
    expect(await Promise.all(reads)).toHaveLength(MAX_DOCUMENT_WORKERS + MAX_WAITING_DOCUMENTS);
  }, 30_000);

  it('refuses a document that overruns the deadline or the heap, leaving this thread free', async () => {
    const big = storedDocx(Array.from({ length: 100_000 }, (_, index) => `Line ${index} lorem ipsum dolor`));
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 20);
    await expect(textOf(big, { timeoutMs: 400 })).rejects.toThrow(
      'The document took longer than 0.4 s to read',
    );
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5);
    await expect(textOf(big, { heapMb: 32 })).rejects.toThrow(
      'The document needs more memory to read than this server gives one file',
    );
    // A worker that failed is replaced: the next document reads.
    expect(await textOf(storedDocx(['After']))).toEqual({ kind: 'text', text: 'After' });
  }, 30_000);
});
