/**
 * serializeJsonForScript writes value as JSON that is safe inside an HTML `<script>` element.
 * `<` becomes `\u003c` so no `</script>` or `<!--` can close or confuse the element, and U+2028/U+2029
 * are escaped because older JavaScript parsers treat them as line terminators.
 */
export function serializeJsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
