// A PDF's streams may be FlateDecode-compressed a thousandfold, and pdf.js holds each decoded stream whole:
// a 100 KB file can ask for 100 MB (and a file at EXTRACT_MAX_MB for gigabytes) before any text comes
// out. So before the parser runs, every Flate stream that is not an image (images are not decoded to read
// text) is inflated here within what is left of one budget for the whole file.
import { inflateSync } from 'node:zlib';

const STREAM = /\bstream\r?\n/g;
const END = Buffer.from('endstream', 'latin1');

function shown(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** pdfProblem says why a PDF is refused (a sentence for `details`), or null when its streams fit maxDecodedBytes. */
export function pdfProblem(bytes: Buffer, maxDecodedBytes: number): string | null {
  const text = bytes.toString('latin1');
  let left = maxDecodedBytes;
  STREAM.lastIndex = 0;
  for (let match = STREAM.exec(text); match !== null; match = STREAM.exec(text)) {
    const start = match.index + match[0].length;
    // The stream's dictionary is what precedes the keyword, back to its object's start.
    const before = text.slice(Math.max(0, match.index - 2048), match.index);
    const dictionary = before.slice(before.lastIndexOf(' obj') + 1);
    if (!/\/FlateDecode\b|\/Fl\b/.test(dictionary) || /\/Subtype\s*\/Image\b/.test(dictionary)) continue;
    const end = bytes.indexOf(END, start);
    const data = bytes.subarray(start, end < 0 ? bytes.length : end);
    try {
      left -= inflateSync(data, { maxOutputLength: left + 1 }).length;
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        return `The PDF's compressed streams unpack to more than ${shown(maxDecodedBytes)}, more than extraction reads`;
      }
      // A damaged stream is the parser's to report (or skip).
    }
    if (left < 0) {
      return `The PDF's compressed streams unpack to more than ${shown(maxDecodedBytes)}, more than extraction reads`;
    }
    // A stream without its end runs to the file's end: nothing after it is another stream.
    if (end < 0) break;
    STREAM.lastIndex = end + END.length;
  }
  return null;
}
