import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { FileBytes } from '../files/file-reader';
import { documentText, pdfText } from './file-text';
import { pdfProblem } from './pdf-guard';

/** flatePdf is a one-page PDF whose content stream (and an image, when given) are FlateDecode streams. */
function flatePdf(content: Buffer, image?: Buffer): Buffer {
  const packed = deflateSync(content);
  const parts: (string | Buffer)[] = [
    '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n',
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>\nendobj\n',
    '5 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n',
    `4 0 obj\n<< /Length ${packed.length} /Filter /FlateDecode >>\nstream\n`,
    packed,
    '\nendstream\nendobj\n',
  ];
  if (image) {
    const pixels = deflateSync(image);
    parts.push(
      `6 0 obj\n<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /Length ${pixels.length} /Filter /FlateDecode >>\nstream\n`,
      pixels,
      '\nendstream\nendobj\n',
    );
  }
  parts.push('trailer\n<< /Root 1 0 R >>\n%%EOF\n');
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : part)));
}

const text = Buffer.from('BT /F1 12 Tf 72 720 Td (Invoice 42) Tj ET\n');
const pdfFile = (bytes: Buffer): FileBytes => ({
  bytes,
  filename: 'bomb.pdf',
  contentType: 'application/pdf',
  source: 'stored',
});

describe('pdfProblem', () => {
  it('passes compressed streams within the budget, images not counted', () => {
    expect(pdfProblem(flatePdf(text, Buffer.alloc(4 * 1024 * 1024)), 1024 * 1024)).toBeNull();
  });

  it('refuses content streams that unpack past the budget, before the parser runs', async () => {
    const bomb = flatePdf(Buffer.concat([text, Buffer.alloc(3 * 1024 * 1024, 0x20)]));
    expect(bomb.length).toBeLessThan(10 * 1024);
    expect(pdfProblem(bomb, 1024 * 1024)).toBe(
      "The PDF's compressed streams unpack to more than 1 MB, more than extraction reads",
    );
    await expect(
      documentText(pdfFile(bomb), { maxEntries: 10, maxUncompressedBytes: 1024 * 1024 }),
    ).rejects.toThrow(/bomb\.pdf: The PDF's compressed streams unpack to more than 1 MB/);
    expect(await documentText(pdfFile(flatePdf(text)))).toBe('Invoice 42');
  });
});

/** sharedStreamPdf is a PDF of pages that all show one Flate content stream (decoded again for each). */
function sharedStreamPdf(pages: number, content: Buffer): Buffer {
  const packed = deflateSync(content);
  const kids = Array.from({ length: pages }, (_, index) => `${10 + index} 0 R`).join(' ');
  let head = `%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [${kids}] /Count ${pages} >>\nendobj\n5 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n`;
  for (let index = 0; index < pages; index++) {
    head += `${10 + index} 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>\nendobj\n`;
  }
  head += `4 0 obj\n<< /Length ${packed.length} /Filter /FlateDecode >>\nstream\n`;
  return Buffer.concat([
    Buffer.from(head, 'latin1'),
    packed,
    Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1'),
  ]);
}

describe('pdfText', () => {
  // A 20 s test timeout: starting the reader's worker thread takes seconds on a busy 2-core machine.
  it('reads off the main thread and gives up past its deadline (pages sharing a large stream)', async () => {
    const slow = sharedStreamPdf(200, Buffer.concat([text, Buffer.alloc(5 * 1024 * 1024, 0x20)]));
    expect(pdfProblem(slow, 200 * 1024 * 1024)).toBeNull();
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 20);
    const started = Date.now();
    await expect(pdfText(slow, 500)).rejects.toThrow('The PDF took longer than 0.5 s to read');
    clearInterval(timer);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(ticks).toBeGreaterThan(5);
    expect(await pdfText(sharedStreamPdf(3, text))).toBe('Invoice 42\n\nInvoice 42\n\nInvoice 42');
  }, 20_000);
});
