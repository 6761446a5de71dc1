// Splits a child process's output into lines on the raw bytes, holding at most maxLineBytes of the line in
// progress: the rest of a longer line is dropped and counted. readline built one string per line, so a
// function printing 600 MB without a newline threw `RangeError: Invalid string length` in the server.
import type { Readable } from 'node:stream';

const NEWLINE = 0x0a;

/** LineSink receives what splitLines finds. */
export interface LineSink {
  /** line is one line (without its `\n` or `\r\n`); a cut line is its first maxLineBytes. */
  line(text: string): void;
  /** overflow says the line just handed over was cut at maxLineBytes (called once per long line). */
  overflow(): void;
  /** dropped counts the bytes dropped of a cut line, once the line ends (a newline, or the stream's end). */
  dropped(bytes: number): void;
}

/** splitLines reads input to its end, handing each line to sink; memory stays within maxLineBytes. */
export function splitLines(input: Readable, maxLineBytes: number, sink: LineSink): void {
  let parts: Buffer[] = [];
  let kept = 0;
  let dropped = 0;
  /** cut is set once the line in progress has been handed over at the cap. */
  let cut = false;

  const endLine = () => {
    if (cut) sink.dropped(dropped);
    else {
      const text = Buffer.concat(parts, kept).toString('utf8');
      sink.line(text.endsWith('\r') ? text.slice(0, -1) : text);
    }
    parts = [];
    kept = 0;
    dropped = 0;
    cut = false;
  };

  const take = (segment: Buffer) => {
    if (cut) {
      dropped += segment.length;
      return;
    }
    const room = maxLineBytes - kept;
    if (segment.length <= room) {
      // A copy: the chunk is not kept alive for a few bytes of it.
      parts.push(Buffer.from(segment));
      kept += segment.length;
      return;
    }
    parts.push(Buffer.from(segment.subarray(0, room)));
    kept += room;
    dropped += segment.length - room;
    // Handed over now, not at the line's end: that may come long after the call (or never).
    cut = true;
    sink.line(Buffer.concat(parts, kept).toString('utf8'));
    sink.overflow();
    parts = [];
  };

  input.on('data', (chunk: Buffer) => {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end < 0) break;
      take(chunk.subarray(start, end));
      endLine();
      start = end + 1;
    }
    if (start < chunk.length) take(chunk.subarray(start));
  });
  input.once('end', () => {
    if (kept > 0 || cut) endLine();
  });
}
