const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** escapeHtml escapes text for use in HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/**
 * requestedPathLabel returns the path of a request URL without its leading slash or query, percent-decoded
 * where possible, e.g. `/no/such?x=1` → `no/such`. The result is raw text: escape it before use in HTML.
 */
export function requestedPathLabel(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const trimmed = path.replace(/^\/+/, '');
  try {
    return decodeURIComponent(trimmed);
  } catch {
    // NB: a malformed escape such as `%E0%A4%A` is shown as sent rather than failing the page.
    return trimmed;
  }
}
