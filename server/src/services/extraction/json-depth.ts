// JSON.parse builds whatever nesting a document holds (2 M levels cost seconds and a deep tree after),
// so a document's depth is measured first, in one pass over its characters that skips strings.

const OPEN_OBJECT = 123; // {
const OPEN_ARRAY = 91; // [
const CLOSE_OBJECT = 125; // }
const CLOSE_ARRAY = 93; // ]
const QUOTE = 34; // "
const BACKSLASH = 92; // \

/** jsonDepthProblem says why text nests too deeply (a sentence for `details`), or null within maxDepth. */
export function jsonDepthProblem(text: string, maxDepth: number): string | null {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === BACKSLASH) at++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      depth++;
      if (depth > maxDepth) {
        return `The JSON file nests arrays and objects more than ${maxDepth} levels deep, more than extraction reads`;
      }
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      depth--;
    }
  }
  return null;
}
