// Reads the file behind a URL an app passes to an integration (InvokeLLM `file_urls`, extraction
// `file_url`): our own stored files straight from storage (a private one only with a valid signature, as its
// download route demands), anything else through the guarded public fetch.
import { InvalidInputError } from '../../lib/errors';
import type { PublicFetch } from '../../lib/public-fetch';
import type { FileService } from './file-service';
import { servedType } from './served-type';

/** FileBytes is a whole file read into memory (integrations need the bytes; the caps keep them small). */
export interface FileBytes {
  bytes: Buffer;
  /** contentType is the stored (sniffed) type, or the remote answer's declared one. */
  contentType: string;
  filename: string;
  source: 'stored' | 'remote';
}

/** FileReadLimits are the most bytes a read takes and how long a remote fetch may wait. */
export interface FileReadLimits {
  maxBytes: number;
  timeoutMs: number;
}

/** FileReader reads the file behind a URL appId passes to an integration, within limits. */
export interface FileReader {
  /** Reads url: appId's own stored file from storage (a private one only if signed), else a public fetch. */
  (appId: string, url: string, limits: FileReadLimits): Promise<FileBytes>;
}

// The paths routes/files.ts serves: /api/apps/{app}/files/{public|private}/{key}/{name}.
const STORED_PATH = /^\/api\/apps\/([^/]+)\/files\/(public|private)\/([0-9a-f]{32})\/([^/]*)$/;

/** createFileReader reads files by URL for appId's integrations. */
export function createFileReader(deps: { files: FileService; fetchPublic: PublicFetch }): FileReader {
  return async function readFileUrl(appId: string, url: string, limits: FileReadLimits): Promise<FileBytes> {
    let parsed: URL;
    try {
      parsed = new URL(url, 'http://relative.invalid');
    } catch {
      throw new InvalidInputError(`Not a valid file URL: ${url.slice(0, 200)}`);
    }
    const stored = STORED_PATH.exec(parsed.pathname);
    if (stored && decodeURIComponent(stored[1] ?? '') === appId) {
      const [, , access, key = ''] = stored;
      const signed =
        access === 'private'
          ? {
              expires: parsed.searchParams.get('expires') ?? undefined,
              signature: parsed.searchParams.get('signature') ?? undefined,
            }
          : undefined;
      const row = await deps.files.findReadable(appId, key, signed);
      if (row.size > limits.maxBytes) throw tooLarge(row.filename, limits.maxBytes);
      const chunks: Buffer[] = [];
      for await (const chunk of await deps.files.open(row)) chunks.push(chunk as Buffer);
      return {
        bytes: Buffer.concat(chunks),
        contentType: row.content_type,
        filename: row.filename,
        source: 'stored',
      };
    }
    if (parsed.host === 'relative.invalid') {
      throw new InvalidInputError(`Not a file of this app: ${url.slice(0, 200)}`);
    }
    const answer = await deps.fetchPublic({ url: parsed.toString(), ...limits });
    if (answer.status !== 200) {
      throw new InvalidInputError(
        `Could not fetch ${parsed.host}${parsed.pathname.slice(0, 120)}: HTTP ${answer.status}`,
      );
    }
    const declared =
      String(answer.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim() || undefined;
    const filename = decodeURIComponent(parsed.pathname.split('/').pop() ?? '') || 'file';
    return {
      bytes: answer.body,
      contentType: servedType(null, declared).contentType,
      filename,
      source: 'remote',
    };
  };
}

function tooLarge(filename: string, maxBytes: number): InvalidInputError {
  return new InvalidInputError(
    `The file ${filename.slice(0, 100)} is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB this integration reads`,
  );
}
