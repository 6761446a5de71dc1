import { RE2JS } from 're2js';

// Schema `pattern`s run on RE2 (linear-time matching, no catastrophic backtracking). The project loader
// and the record validator compile them here alike, so a pattern that loads is one that validates.

const compiled = new Map<string, RE2JS>();

/**
 * compileLinearPattern compiles an ECMAScript pattern for RE2 (its `\uXXXX` escapes translated), or throws
 * when it uses what RE2 lacks (lookarounds, backreferences).
 */
export function compileLinearPattern(source: string): RE2JS {
  let pattern = compiled.get(source);
  if (!pattern) compiled.set(source, (pattern = RE2JS.compile(RE2JS.translateRegExp(source))));
  return pattern;
}
