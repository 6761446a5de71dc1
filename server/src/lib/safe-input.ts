import { InvalidInputError } from './errors';

/** MAX_JSON_DEPTH is how deeply a JSON input (a body, a `q` query) may nest objects and arrays. */
export const MAX_JSON_DEPTH = 64;

const NUL_MESSAGE = 'holds a NUL character (\\u0000), which cannot be stored';
const SURROGATE_MESSAGE =
  'holds a lone UTF-16 surrogate (an unpaired \\ud800–\\udfff), which cannot be stored';

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * unsafeStringReason says why a string cannot be taken as input (a NUL, or a lone surrogate: neither can
 * be stored as text or JSONB), or null when it is fine.
 */
export function unsafeStringReason(value: string): string | null {
  if (value.includes('\0')) return NUL_MESSAGE;
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (isHigh(code) && isLow(value.charCodeAt(index + 1))) index += 1;
    else if (isHigh(code) || isLow(code)) return SURROGATE_MESSAGE;
  }
  return null;
}

/** unsafeValueReason walks strings, keys and nested arrays/objects (of parsed query strings, params). */
export function unsafeValueReason(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return unsafeStringReason(value);
  if (typeof value !== 'object' || value === null || depth > MAX_JSON_DEPTH) return null;
  for (const [key, item] of Object.entries(value)) {
    const reason = unsafeStringReason(key) ?? unsafeValueReason(item, depth + 1);
    if (reason) return reason;
  }
  return null;
}

const hexAt = (text: string, at: number) => {
  const hex = text.slice(at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? Number.parseInt(hex, 16) : -1;
};

/**
 * unsafeJsonReason scans JSON source once, without parsing it, for what must not reach the parser or
 * the database: nesting deeper than MAX_JSON_DEPTH, a `\u0000` escape, and lone surrogates (escaped or
 * raw). Syntax errors are left to JSON.parse.
 */
export function unsafeJsonReason(text: string): string | null {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (!inString) {
      if (code === 0x22) inString = true;
      else if (code === 0x5b || code === 0x7b) {
        depth += 1;
        if (depth > MAX_JSON_DEPTH) return `nests deeper than ${MAX_JSON_DEPTH} levels`;
      } else if (code === 0x5d || code === 0x7d) depth -= 1;
      continue;
    }
    if (code === 0x22) inString = false;
    else if (code === 0x5c) {
      if (text.charCodeAt(index + 1) !== 0x75) {
        index += 1;
        continue;
      }
      const unit = hexAt(text, index + 2);
      if (unit === 0) return NUL_MESSAGE;
      if (isLow(unit)) return SURROGATE_MESSAGE;
      if (isHigh(unit)) {
        const next = text.startsWith('\\u', index + 6) ? hexAt(text, index + 8) : -1;
        if (!isLow(next)) return SURROGATE_MESSAGE;
        index += 6;
      }
      index += 5;
    } else if (code === 0) return NUL_MESSAGE;
    else if (isHigh(code) && isLow(text.charCodeAt(index + 1))) index += 1;
    else if (isHigh(code) || isLow(code)) return SURROGATE_MESSAGE;
  }
  return null;
}

/**
 * parseJsonInput parses JSON that came from a caller (what names it in messages, e.g. "The request
 * body"), refusing with a 400 what unsafeJsonReason finds before JSON.parse sees it.
 */
export function parseJsonInput(text: string, what: string): unknown {
  const reason = unsafeJsonReason(text);
  if (reason) throw new InvalidInputError(`${what} ${reason}`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : 'parse error';
    throw new InvalidInputError(`${what} is not valid JSON: ${detail}`);
  }
}
