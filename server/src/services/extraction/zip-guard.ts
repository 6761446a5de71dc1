// XLSX, ODS and DOCX are zip archives: a small file may declare gigabytes of content (a zip bomb), which
// the parsers would inflate into memory. The central directory lists every entry's size, so the totals
// are checked before any parser runs. A directory may lie (declare a few bytes for an entry that inflates
// to gigabytes, which the parsers only notice once it is all in memory), so each entry is then inflated
// here with its declared size as the most it may produce: memory stays within the declared, capped total.
import { inflateRawSync } from 'node:zlib';

/** ZipLimits bound an archive's entries and declared uncompressed bytes. */
export interface ZipLimits {
  maxEntries: number;
  maxUncompressedBytes: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
const DAMAGED = 'The file is not a readable Office document (damaged zip entry)';
// The end record is 22 bytes plus a comment of at most 65,535.
const END_SEARCH = 22 + 65_535;

/** zipProblem says why an archive is refused (a sentence for `details`), or null when within limits. */
export function zipProblem(bytes: Buffer, limits: ZipLimits): string | null {
  const from = Math.max(0, bytes.length - END_SEARCH);
  let end = -1;
  for (let at = bytes.length - 22; at >= from; at--) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return 'The file is not a readable Office document (no zip directory)';
  const entries = bytes.readUInt16LE(end + 10);
  let offset = bytes.readUInt32LE(end + 16);
  if (entries === 0xffff || offset === 0xffffffff)
    return 'The file is a ZIP64 archive, which extraction does not read';
  if (entries > limits.maxEntries) return `The file holds more than ${limits.maxEntries} parts`;
  let total = 0;
  const parts: { method: number; compressed: number; size: number; local: number }[] = [];
  for (let index = 0; index < entries; index++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== DIRECTORY_ENTRY) {
      return 'The file is not a readable Office document (damaged zip directory)';
    }
    const size = bytes.readUInt32LE(offset + 24);
    if (size === 0xffffffff) return 'The file is a ZIP64 archive, which extraction does not read';
    parts.push({
      method: bytes.readUInt16LE(offset + 10),
      compressed: bytes.readUInt32LE(offset + 20),
      size,
      local: bytes.readUInt32LE(offset + 42),
    });
    total += size;
    if (total > limits.maxUncompressedBytes) {
      const limit = limits.maxUncompressedBytes;
      const shown =
        limit >= 1024 * 1024 ? `${Math.round(limit / 1024 / 1024)} MB` : `${Math.round(limit / 1024)} KB`;
      return `The file unpacks to more than ${shown}, more than extraction reads`;
    }
    offset +=
      46 +
      bytes.readUInt16LE(offset + 28) +
      bytes.readUInt16LE(offset + 30) +
      bytes.readUInt16LE(offset + 32);
  }
  for (const part of parts) {
    const problem = entryProblem(bytes, part);
    if (problem !== null) return problem;
  }
  return null;
}

/** entryProblem inflates one entry, allowed no more than the size the directory declares for it. */
function entryProblem(
  bytes: Buffer,
  part: { method: number; compressed: number; size: number; local: number },
): string | null {
  const { local } = part;
  if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL_ENTRY) return DAMAGED;
  const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
  if (start + part.compressed > bytes.length) return DAMAGED;
  if (part.method === STORED) return part.compressed === part.size ? null : DAMAGED;
  if (part.method !== DEFLATED) return 'The file uses a zip compression extraction does not read';
  try {
    // One byte over the declared size is enough to know the directory lies.
    const data = bytes.subarray(start, start + part.compressed);
    inflateRawSync(data, { maxOutputLength: Math.max(1, part.size + 1) });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      return 'The file unpacks to more than its zip directory declares (a zip bomb), which extraction does not read';
    }
    return DAMAGED;
  }
  return null;
}

/** DEFAULT_ZIP_LIMITS suit documents read whole into memory: 10,000 parts, 200 MB unpacked. */
export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxEntries: 10_000, maxUncompressedBytes: 200 * 1024 * 1024 };

const ZIP_MAGIC = Buffer.from('PK\u0003\u0004', 'latin1');

/** archiveProblem is zipProblem for zip files (XLSX, ODS, DOCX…) and null for anything else. */
export function archiveProblem(bytes: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): string | null {
  return bytes.subarray(0, 4).equals(ZIP_MAGIC) ? zipProblem(bytes, limits) : null;
}
