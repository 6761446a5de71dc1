// The model's structured answer is steered by the caller's prompt, so its shape is bounded before anything
// parses or validates it: JSON.parse and ajv's validators nest one call per level (10,000 levels overflow the
// stack), and the validation's cost grows with the answer's size and its arrays' lengths.

/** ANSWER_LIMITS bound a model's JSON answer; a structured answer of a real app is a few KB. */
export const ANSWER_LIMITS = {
  /** maxChars bounds the answer's text. */
  maxChars: 1_000_000,
  /** maxDepth bounds the nesting of its arrays and objects. */
  maxDepth: 64,
  /** maxArrayItems bounds each array's length. */
  maxArrayItems: 10_000,
};

/**
 * answerShapeProblem scans JSON text once, without parsing it, and says how it breaks ANSWER_LIMITS (null
 * when it does not). Syntax errors are left to JSON.parse.
 */
export function answerShapeProblem(text: string): string | null {
  if (text.length > ANSWER_LIMITS.maxChars) {
    return `the answer is longer than ${ANSWER_LIMITS.maxChars} characters`;
  }
  // For each open bracket: -1 for an object, else the commas seen so far in the array (one fewer than its items).
  const open: number[] = [];
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (open.length >= ANSWER_LIMITS.maxDepth) {
        return `the answer nests arrays and objects deeper than ${ANSWER_LIMITS.maxDepth} levels`;
      }
      open.push(code === 0x5b ? 0 : -1);
    } else if (code === 0x5d || code === 0x7d) open.pop();
    else if (code === 0x2c && (open.at(-1) ?? -1) >= 0) {
      const commas = (open.pop() ?? 0) + 1;
      if (commas >= ANSWER_LIMITS.maxArrayItems) {
        return `the answer has an array of more than ${ANSWER_LIMITS.maxArrayItems} items`;
      }
      open.push(commas);
    }
  }
  return null;
}
