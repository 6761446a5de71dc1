// A `$regex` pattern runs inside PostgreSQL (`~` / `~*`, the ARE flavor). Its engine builds an automaton
// whose size grows with every bounded repeat (`(a{1,255}){1,255}` is 65k copies, refused as "too complex"
// only after a long compile) and matches with backtracking where a pattern is ambiguous. So a pattern is
// accepted only when it parses under a small allow-list grammar and stays within a size budget; anything
// else is refused before any SQL is built, with a message saying what is over the limit.
// Size is not cost: matching runs a lazily built DFA, and each character class (or alternation) the text
// can be "in the middle of" doubles the states it may need. Over attacker-written text (`a[ab]{99}c` over
// random a/b) the state cache thrashes and a scan costs 0.1–0.7 µs per byte instead of ~10 ns (measured on
// PostgreSQL 16 and PGlite: `a[ab]{3}c` 13/35 ms per MB, `a[ab]{4}c` 130/89 ms, `a[ab]{99}c` 740/690 ms).
// So an unanchored pattern may hold at most MAX_CLASS_POSITIONS such forks; a pattern anchored with `^` and
// without unbounded repeats reads only a prefix of at most its own size, and may hold more.
// Over 300 lines on purpose: one parser for the allow-listed grammar, with its budgets counted as it reads.

/** MAX_PATTERN_LENGTH is the longest `$regex` pattern accepted, in characters. */
export const MAX_PATTERN_LENGTH = 256;
/** MAX_REPEAT is the largest bound of a counted repeat (`{n}`, `{n,}`, `{n,m}`). */
export const MAX_REPEAT = 16;
/** MAX_PATTERN_SIZE is the most positions a pattern may have once its counted repeats are expanded. */
export const MAX_PATTERN_SIZE = 256;
/**
 * MAX_CLASS_POSITIONS is how many forks (character classes such as `[ab]`, `.`, `\w`, and each extra
 * alternative of a `|`, counted once per expanded repeat) a pattern may hold unless it is anchored at the
 * start and has no unbounded repeat: at most this many keeps a scan near 20 ms per MB on adversarial text.
 */
export const MAX_CLASS_POSITIONS = 3;
/** MAX_CASELESS_RANGE_SPAN is how many characters bracket ranges may span in total under `$options: "i"`. */
export const MAX_CASELESS_RANGE_SPAN = 10_000;
const MAX_GROUP_DEPTH = 32;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type FirstSet = Set<string> | 'any';

/** Piece is one parsed element of a sequence, already analysed. */
interface Piece {
  /** size is the number of positions after expanding counted repeats. */
  size: number;
  nullable: boolean;
  /** first is what the piece can start with: literal characters, or anything. */
  first: FirstSet;
  /** repeats says whether a quantifier with a maximum above 1 occurs in the piece. */
  repeats: boolean;
  /** alternations are the first sets of the alternatives of every group with `|` in the piece. */
  alternations: FirstSet[][];
  /** forks counts the class positions and extra alternatives once counted repeats are expanded. */
  forks: number;
  /** anchored says whether every way through the piece starts with `^` or `\A`. */
  anchored: boolean;
  /** unbounded says whether `*`, `+` or `{n,}` occurs in the piece. */
  unbounded: boolean;
}

class PatternProblem extends Error {}

const CLASS_ESCAPES = new Set(['d', 'D', 's', 'S', 'w', 'W']);
const BRACKET_CLASS_ESCAPES = new Set(['d', 's', 'w']);
const CONSTRAINT_ESCAPES = new Set(['y', 'Y', 'm', 'M', 'A', 'Z']);
const CHARACTER_ESCAPES: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f', v: '\v' };
const POSIX_CLASSES = new Set([
  'alnum',
  'alpha',
  'blank',
  'cntrl',
  'digit',
  'graph',
  'lower',
  'print',
  'punct',
  'space',
  'upper',
  'xdigit',
  'word',
]);
const QUANTIFIER_START = new Set(['*', '+', '?', '{']);
/** plain is a one-position piece with nothing in it (a fresh object: sequences extend theirs in place). */
const plain = (): Piece => ({
  size: 1,
  nullable: false,
  first: 'any',
  repeats: false,
  alternations: [],
  forks: 0,
  anchored: false,
  unbounded: false,
});

function union(a: FirstSet, b: FirstSet): FirstSet {
  if (a === 'any' || b === 'any') return 'any';
  return new Set([...a, ...b]);
}

function overlaps(a: FirstSet, b: FirstSet): boolean {
  if (a === 'any' || b === 'any') return true;
  for (const item of a) if (b.has(item)) return true;
  return false;
}

const fail = (message: string): never => {
  throw new PatternProblem(message);
};

class Parser {
  private pos = 0;
  private depth = 0;
  private rangeSpan = 0;

  constructor(
    private readonly source: string,
    private readonly caseless: boolean,
  ) {}

  parse(): Piece {
    const piece = this.alternation();
    if (this.pos < this.source.length) fail(`unbalanced ")" at position ${this.pos + 1}`);
    return piece;
  }

  private peek(offset = 0): string | undefined {
    return this.source[this.pos + offset];
  }

  private literal(char: string): Piece {
    const key = this.caseless ? char.toLowerCase() : char;
    return { ...plain(), first: new Set([key]) };
  }

  private anything(): Piece {
    return { ...plain(), first: 'any', forks: 1 };
  }

  private assertion(anchored = false): Piece {
    return { ...plain(), nullable: true, first: new Set(), anchored };
  }

  private alternation(): Piece {
    const alternatives: Piece[] = [this.sequence()];
    while (this.peek() === '|') {
      this.pos += 1;
      alternatives.push(this.sequence());
    }
    if (alternatives.length === 1) return alternatives[0] as Piece;
    return {
      size: alternatives.reduce((sum, piece) => sum + piece.size, alternatives.length - 1),
      nullable: alternatives.some((piece) => piece.nullable),
      first: alternatives.reduce<FirstSet>((all, piece) => union(all, piece.first), new Set()),
      repeats: alternatives.some((piece) => piece.repeats),
      alternations: [
        alternatives.map((piece) => (piece.nullable ? 'any' : piece.first)),
        ...alternatives.flatMap((piece) => piece.alternations),
      ],
      forks: alternatives.reduce((sum, piece) => sum + piece.forks, alternatives.length - 1),
      anchored: alternatives.every((piece) => piece.anchored),
      unbounded: alternatives.some((piece) => piece.unbounded),
    };
  }

  private sequence(): Piece {
    const out: Piece = { ...plain(), size: 0, nullable: true, first: new Set() };
    while (this.pos < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      const piece = this.quantified();
      if (out.size === 0) out.anchored = piece.anchored;
      out.size += piece.size;
      out.forks += piece.forks;
      out.unbounded ||= piece.unbounded;
      if (out.nullable) out.first = union(out.first, piece.first);
      out.nullable &&= piece.nullable;
      out.repeats ||= piece.repeats;
      out.alternations.push(...piece.alternations);
    }
    return out;
  }

  private quantified(): Piece {
    const start = this.pos;
    const { piece, zeroWidth } = this.atom();
    const next = this.peek();
    if (next === undefined || !QUANTIFIER_START.has(next)) return piece;
    if (zeroWidth) fail(`a quantifier at position ${this.pos + 1} has nothing to repeat`);
    const { min, max } = this.quantifier();
    if (this.peek() === '?') this.pos += 1; // non-greedy
    const after = this.peek();
    if (after !== undefined && QUANTIFIER_START.has(after)) {
      fail(`a quantifier follows a quantifier at position ${this.pos + 1}`);
    }
    if (max > 1) {
      const shown = this.source.slice(start, this.pos);
      if (piece.repeats) {
        fail(`nested quantifiers (${shown}) can take exponential time; repeat a single element instead`);
      }
      if (piece.nullable) fail(`the repeated part of ${shown} can match the empty string`);
      for (const alternatives of piece.alternations) {
        for (let i = 0; i < alternatives.length; i += 1) {
          for (let j = i + 1; j < alternatives.length; j += 1) {
            if (overlaps(alternatives[i] as FirstSet, alternatives[j] as FirstSet)) {
              fail(
                `the alternatives repeated in ${shown} can start alike (as in (a|aa)*); ` +
                  'use alternatives that start with different characters, or one [class]',
              );
            }
          }
        }
      }
    }
    const copies = max === Infinity ? Math.max(min, 1) + 1 : Math.max(max, 1);
    // An unbounded repeat's last copy is one looping state, so `[a-z]+` is one fork and `\d{2,}` two.
    const forkCopies = max === Infinity ? Math.max(min, 1) : Math.max(max, 1);
    return {
      size: piece.size * copies,
      nullable: min === 0 || piece.nullable,
      first: piece.first,
      repeats: piece.repeats || max > 1,
      alternations: piece.alternations,
      forks: piece.forks * forkCopies,
      anchored: false,
      unbounded: piece.unbounded || max === Infinity,
    };
  }

  private quantifier(): { min: number; max: number } {
    const char = this.peek();
    this.pos += 1;
    if (char === '*') return { min: 0, max: Infinity };
    if (char === '+') return { min: 1, max: Infinity };
    if (char === '?') return { min: 0, max: 1 };
    const bound = /^(\d{1,4})(,(\d{1,4})?)?\}/.exec(this.source.slice(this.pos));
    if (!bound) return fail(`"{" at position ${this.pos} must start a bound such as {2} or {1,5}`);
    this.pos += bound[0].length;
    const min = Number(bound[1]);
    const max = bound[2] === undefined ? min : bound[3] === undefined ? Infinity : Number(bound[3]);
    if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) {
      fail(`a counted repeat may not exceed ${MAX_REPEAT} (got {${bound[0].slice(0, -1)}})`);
    }
    if (min > max) fail(`the repeat {${bound[0].slice(0, -1)}} has its bounds reversed`);
    return { min, max };
  }

  private atom(): { piece: Piece; zeroWidth: boolean } {
    const char = this.peek() as string;
    if (char === '(') return { piece: this.group(), zeroWidth: false };
    if (char === '[') return { piece: this.bracket(), zeroWidth: false };
    this.pos += 1;
    if (char === '.') return { piece: this.anything(), zeroWidth: false };
    if (char === '^' || char === '$') return { piece: this.assertion(char === '^'), zeroWidth: true };
    if (QUANTIFIER_START.has(char)) fail(`a quantifier at position ${this.pos} has nothing to repeat`);
    if (char !== '\\') return { piece: this.literal(char), zeroWidth: false };
    const escaped = this.peek();
    if (escaped === undefined) return fail('the pattern ends with a lone "\\"');
    this.pos += 1;
    if (CLASS_ESCAPES.has(escaped)) return { piece: this.anything(), zeroWidth: false };
    if (CONSTRAINT_ESCAPES.has(escaped)) return { piece: this.assertion(escaped === 'A'), zeroWidth: true };
    return { piece: this.literal(this.escapedCharacter(escaped)), zeroWidth: false };
  }

  /** escapedCharacter is the character `\<escaped>` stands for (pos is past `escaped`). */
  private escapedCharacter(escaped: string): string {
    const named = CHARACTER_ESCAPES[escaped];
    if (named !== undefined) return named;
    if (escaped === 'u') {
      const hex = /^[0-9A-Fa-f]{4}/.exec(this.source.slice(this.pos));
      if (!hex) return fail('\\u needs exactly four hex digits (\\u00e9)');
      this.pos += 4;
      const code = Number.parseInt(hex[0], 16);
      if (code === 0 || (code >= 0xd800 && code <= 0xdfff)) return fail(`\\u${hex[0]} is not a character`);
      return String.fromCharCode(code);
    }
    if (/[0-9]/.test(escaped))
      return fail(`backreferences and octal escapes (\\${escaped}) are not supported`);
    if (/[A-Za-z]/.test(escaped)) {
      return fail(
        `\\${escaped} is not a supported escape (supported: \\d \\s \\w, their negations, \\y \\m \\M \\A \\Z, \\t \\n \\r \\f \\v, \\uXXXX, and \\ before punctuation)`,
      );
    }
    return escaped;
  }

  private group(): Piece {
    this.pos += 1;
    if (this.peek() === '?') {
      if (this.peek(1) !== ':') {
        fail('lookarounds, embedded options and other (?…) groups are not supported; use (?:…) or (…)');
      }
      this.pos += 2;
    }
    this.depth += 1;
    if (this.depth > MAX_GROUP_DEPTH) fail(`groups nest deeper than ${MAX_GROUP_DEPTH}`);
    const inner = this.alternation();
    if (this.peek() !== ')') fail('a "(" is never closed');
    this.pos += 1;
    this.depth -= 1;
    return inner;
  }

  private bracket(): Piece {
    this.pos += 1;
    if (this.peek() === '^') this.pos += 1;
    let first = true;
    for (;;) {
      const char = this.peek();
      if (char === undefined) return fail('a "[" is never closed');
      if (char === ']' && !first) {
        this.pos += 1;
        return this.anything();
      }
      first = false;
      if (char === '[' && (this.peek(1) === '.' || this.peek(1) === '=')) {
        fail('collating elements ([. .] and [= =]) are not supported');
      }
      if (char === '[' && this.peek(1) === ':') {
        const name = /^\[:([a-z]+):\]/.exec(this.source.slice(this.pos));
        if (!name || !POSIX_CLASSES.has(name[1] as string)) fail('unknown [: :] character class');
        this.pos += (name as RegExpExecArray)[0].length;
        continue;
      }
      const low = this.bracketCharacter();
      if (low === null) continue;
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.pos += 1;
        const high = this.bracketCharacter();
        if (high === null) return fail('a character range cannot end in a class escape');
        const span = (high.codePointAt(0) as number) - (low.codePointAt(0) as number);
        if (span < 0) fail(`the character range ${low}-${high} is reversed`);
        if (this.caseless) {
          this.rangeSpan += span + 1;
          if (this.rangeSpan > MAX_CASELESS_RANGE_SPAN) {
            fail(`character ranges span more than ${MAX_CASELESS_RANGE_SPAN} characters under $options "i"`);
          }
        }
      }
    }
  }

  /** bracketCharacter consumes one bracket member: a character, or null for a class escape such as \d. */
  private bracketCharacter(): string | null {
    const char = this.source.codePointAt(this.pos) as number;
    const text = String.fromCodePoint(char);
    this.pos += text.length;
    if (text !== '\\') return text;
    const escaped = this.peek();
    if (escaped === undefined) return fail('the pattern ends with a lone "\\"');
    this.pos += 1;
    if (BRACKET_CLASS_ESCAPES.has(escaped)) return null;
    return this.escapedCharacter(escaped);
  }
}

/**
 * regexReadsOnlyPrefix says whether an accepted pattern is anchored at the start and free of unbounded
 * repeats, so matching reads at most a prefix of about its own size rather than the whole value.
 */
export function regexReadsOnlyPrefix(pattern: string, caseless = false): boolean {
  try {
    const piece = new Parser(pattern, caseless).parse();
    return piece.anchored && !piece.unbounded;
  } catch (error) {
    if (error instanceof PatternProblem) return false;
    throw error;
  }
}

/**
 * regexProblem says why pattern may not run as a PostgreSQL `$regex` (caseless for `$options: "i"`), or
 * null when it may: too long, outside the supported grammar (no backreferences, lookarounds or embedded
 * options), nested or ambiguous repeats, counted repeats above MAX_REPEAT, a size above MAX_PATTERN_SIZE,
 * or more than MAX_CLASS_POSITIONS forks in a pattern that may scan the whole value.
 */
export function regexProblem(pattern: string, caseless = false): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return `$regex is longer than ${MAX_PATTERN_LENGTH} characters (${pattern.length})`;
  }
  if (pattern.includes('\0') || LONE_SURROGATE.test(pattern)) {
    return '$regex may not contain NUL characters or lone surrogates';
  }
  try {
    const piece = new Parser(pattern, caseless).parse();
    if (piece.size > MAX_PATTERN_SIZE) {
      return `$regex is too complex: ${piece.size} positions once its repeats are expanded (at most ${MAX_PATTERN_SIZE})`;
    }
    if (piece.forks > MAX_CLASS_POSITIONS && !(piece.anchored && !piece.unbounded)) {
      return (
        `$regex is too costly to scan: ${piece.forks} character classes or alternatives once its repeats are ` +
        `expanded (at most ${MAX_CLASS_POSITIONS}, unless it starts with ^ and has no *, + or {n,})`
      );
    }
    return null;
  } catch (error) {
    if (error instanceof PatternProblem) return `$regex is not accepted: ${error.message}`;
    throw error;
  }
}
