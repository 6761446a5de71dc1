// What a function printed during one call, for the app logs: a process's stdout/stderr lines go to the call
// it is serving (the oldest one still running when every instance is shared, else the call that just
// ended: its last lines may arrive a moment after its answer), bounded per call, with secrets redacted.

/** CALL_OUTPUT_LIMITS bound what one call keeps: lines, characters (UTF-16 units) in all, one line's length. */
export const CALL_OUTPUT_LIMITS = { lines: 200, chars: 16 * 1024, lineChars: 2000 } as const;
/** OUTPUT_GRACE_MS is how long after its answer a call still collects the lines its process prints. */
export const OUTPUT_GRACE_MS = 100;
/** SECRET_MIN_CHARS: shorter secret values are not redacted (they would match ordinary text). */
export const SECRET_MIN_CHARS = 4;

/** OutputLine is one line a function printed. */
export interface OutputLine {
  stream: 'stdout' | 'stderr';
  line: string;
}

/** CallOutput is what one call collected: kept lines, how many were dropped past the limits. */
export interface CallOutput {
  lines: OutputLine[];
  dropped: number;
  chars: number;
  /** tokens are this call's own secrets (its minted service token, the caller's bearer token). */
  tokens: string[];
}

/** Redactor replaces every known secret value in a text; extra are values of one call. */
export type Redactor = (text: string, extra?: readonly string[]) => string;

interface Known {
  value: string;
  label: string;
}

function knownValues(named: Record<string, string>, extra: readonly string[]): Known[] {
  const known: Known[] = [];
  for (const [name, value] of Object.entries(named)) {
    if (value.length >= SECRET_MIN_CHARS) known.push({ value, label: `[redacted secret ${name}]` });
  }
  for (const value of extra) {
    if (value.length >= SECRET_MIN_CHARS) known.push({ value, label: '[redacted token]' });
  }
  // Longest first: a secret containing another is replaced whole.
  return known.sort((a, b) => b.value.length - a.value.length);
}

/**
 * createRedactor returns a redactor of the app's secret values (by name): each occurrence becomes
 * `[redacted secret NAME]`, each of a call's tokens `[redacted token]`.
 */
export function createRedactor(secrets: Record<string, string>): Redactor {
  const base = knownValues(secrets, []);
  return (text, extra = []) => {
    const known = extra.length > 0 ? knownValues(secrets, extra) : base;
    let out = text;
    for (const { value, label } of known) if (out.includes(value)) out = out.split(value).join(label);
    return out;
  };
}

/**
 * boundLine cuts a redacted line to max characters; a cut through a secret leaves its start at the end
 * of the line, which is then removed too (known values of at least SECRET_MIN_CHARS).
 */
export function boundLine(line: string, max: number, secrets: readonly string[]): string {
  if (line.length <= max) return line;
  let cut = line.slice(0, max);
  for (const value of secrets) {
    const size = Math.min(overlap(cut, value), value.length - 1);
    if (size >= SECRET_MIN_CHARS) cut = `${cut.slice(0, cut.length - size)}[redacted]`;
  }
  return `${cut}…`;
}

/**
 * overlap is the length of the longest end of text that is a start of value, in time linear in their
 * lengths (a prefix function over value, then over text's end): comparing every length instead was
 * quadratic, and a caller's bearer token of 15 KB is one of the values.
 */
function overlap(text: string, value: string): number {
  const prefix = new Int32Array(value.length);
  for (let i = 1, k = 0; i < value.length; i += 1) {
    while (k > 0 && value[i] !== value[k]) k = prefix[k - 1] ?? 0;
    if (value[i] === value[k]) k += 1;
    prefix[i] = k;
  }
  let k = 0;
  for (let i = Math.max(0, text.length - value.length); i < text.length; i += 1) {
    while (k > 0 && (k === value.length || text[i] !== value[k])) k = prefix[k - 1] ?? 0;
    if (text[i] === value[k]) k += 1;
  }
  return k;
}

/** OutputTap is one process's output, shared out to the calls it serves. */
export interface OutputTap {
  /** line takes one raw line of the process; returns it redacted and bounded (for the server log). */
  line(stream: OutputLine['stream'], raw: string): string;
  /** begin starts collecting for a call (tokens: its own secret values). */
  begin(tokens: string[]): CallOutput;
  /** end stops the call and resolves once its grace period is over (its output complete). */
  end(call: CallOutput): Promise<CallOutput>;
}

/** createOutputTap returns the tap of one process that knows secrets (name → value). */
export function createOutputTap(
  secrets: Record<string, string>,
  now: () => number = Date.now,
  graceMs = OUTPUT_GRACE_MS,
): OutputTap {
  const redact = createRedactor(secrets);
  const values = Object.values(secrets).filter((value) => value.length >= SECRET_MIN_CHARS);
  const active: CallOutput[] = [];
  let recent: { call: CallOutput; until: number } | null = null;

  return {
    line(stream, raw) {
      const call = active[0] ?? (recent && now() <= recent.until ? recent.call : null);
      const tokens = call?.tokens ?? [];
      const line = boundLine(redact(raw, tokens), CALL_OUTPUT_LIMITS.lineChars, [...values, ...tokens]);
      if (call) {
        if (
          call.lines.length >= CALL_OUTPUT_LIMITS.lines ||
          call.chars + line.length > CALL_OUTPUT_LIMITS.chars
        ) {
          call.dropped += 1;
        } else {
          call.lines.push({ stream, line });
          call.chars += line.length;
        }
      }
      return line;
    },
    begin(tokens) {
      const call: CallOutput = { lines: [], dropped: 0, chars: 0, tokens };
      active.push(call);
      return call;
    },
    end(call) {
      const index = active.indexOf(call);
      if (index >= 0) active.splice(index, 1);
      recent = { call, until: now() + graceMs };
      return new Promise((resolve) => {
        setTimeout(() => {
          if (recent?.call === call) recent = null;
          resolve(call);
        }, graceMs).unref();
      });
    },
  };
}
