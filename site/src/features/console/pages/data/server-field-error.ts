import { leafFieldsOf, type FieldProblem, type FormField } from './schema-form';

// The server names a refused field in its validation message (HTTP 422 `{error_type: "ValidationError",
// message, detail}` for a record that breaks its schema: `Error in field <path>: <reason>`, prefixed with
// `Record <n>: ` by the batch writes). This maps that path to the form input that holds it.

const FIELD_MESSAGE = /^(?:Record [^:]+: )?Error in field ([^:]+): (.*)$/s;

/** messageOfBody is the server's message in an error answer (`message`, else `detail`), if any. */
export function messageOfBody(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const { message, detail } = body as { message?: unknown; detail?: unknown };
  if (typeof message === 'string' && message) return message;
  return typeof detail === 'string' && detail ? detail : null;
}

/**
 * inputPathFor is the form field holding path: the field itself, else the closest one above it (an
 * array's item `tags.0` is in `tags`; a nested `meta.deep.pin` in the JSON field `meta.deep`), else null.
 */
export function inputPathFor(path: string, fields: FormField[]): string | null {
  const paths = new Set(leafFieldsOf(fields).map((field) => field.path));
  const parts = path.split('.');
  for (let length = parts.length; length > 0; length -= 1) {
    const candidate = parts.slice(0, length).join('.');
    if (paths.has(candidate)) return candidate;
  }
  return null;
}

/**
 * serverFieldProblem reads a refused write's answer: the problem on the form field it names, or null when
 * the answer names no field of the form (the message is then shown above the form).
 */
export function serverFieldProblem(body: unknown, fields: FormField[]): FieldProblem | null {
  const message = messageOfBody(body);
  const match = message ? FIELD_MESSAGE.exec(message) : null;
  if (!match?.[1] || match[2] === undefined) return null;
  const path = inputPathFor(match[1].trim(), fields);
  if (!path) return null;
  const inside = path === match[1].trim() ? '' : ` (${match[1].trim()})`;
  return { path, message: `${match[2]}${inside}` };
}
