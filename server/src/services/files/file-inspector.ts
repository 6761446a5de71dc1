import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { PayloadTooLargeError } from '../../lib/errors';

/** SNIFF_BYTES is how much of a file's start is read to tell its type (file-type's own sample size). */
const SNIFF_BYTES = 4100;

/** FileTooLargeError says an upload passed the FILE_MAX_MB limit; the message names it. */
export class FileTooLargeError extends PayloadTooLargeError {
  override name = 'FileTooLargeError';
}

/** Inspection is what a file's bytes told as they passed: size, digest and the sniffed MIME type. */
export interface Inspection {
  size: number;
  sha256: string;
  sniffedType: string | null;
}

/**
 * FileInspector passes bytes through unchanged while counting them (failing past maxBytes), hashing them
 * and sniffing the type from the first SNIFF_BYTES; only that head is ever held.
 */
export class FileInspector extends Transform {
  private readonly hash = createHash('sha256');
  private size = 0;
  private head: Buffer[] = [];
  private headBytes = 0;
  private sniffed: string | null | undefined;

  /** setting names the limit in the error (FILE_MAX_MB, or FILE_ANONYMOUS_MAX_MB for visitors). */
  constructor(
    private readonly maxBytes: number,
    private readonly setting = 'FILE_MAX_MB',
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      const megabytes = Math.round((this.maxBytes / 1024 / 1024) * 100) / 100;
      done(new FileTooLargeError(`A file may be at most ${megabytes} MB (${this.setting})`));
      return;
    }
    this.hash.update(chunk);
    if (this.sniffed !== undefined) return done(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < SNIFF_BYTES) return done();
    this.releaseHead(done);
  }

  override _flush(done: TransformCallback): void {
    if (this.sniffed !== undefined) return done();
    this.releaseHead(done);
  }

  private releaseHead(done: TransformCallback): void {
    const head = Buffer.concat(this.head);
    this.head = [];
    // file-type is loaded on the first upload, not at every start.
    import('file-type')
      .then(({ fileTypeFromBuffer }) => fileTypeFromBuffer(head.subarray(0, SNIFF_BYTES)))
      .then(
        (type) => {
          this.sniffed = type?.mime ?? null;
          done(null, head);
        },
        () => {
          this.sniffed = null;
          done(null, head);
        },
      );
  }

  /** result is what was seen; call it once the stream has ended. */
  result(): Inspection {
    return { size: this.size, sha256: this.hash.digest('hex'), sniffedType: this.sniffed ?? null };
  }
}
