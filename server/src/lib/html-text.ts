// The plain-text alternative of an HTML mail body: block elements become line breaks, links keep their
// address, tags go, and the common entities are decoded. A readable fallback, not a renderer.

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** looksLikeHtml says whether a body holds HTML tags (then it is sent as HTML with a text alternative). */
export function looksLikeHtml(body: string): boolean {
  return /<(\/?)(p|br|div|span|a|b|i|strong|em|ul|ol|li|table|tr|td|th|h[1-6]|html|body|img|hr|blockquote|pre)\b[^>]*>/i.test(
    body,
  );
}

/** htmlToText turns an HTML body into readable plain text. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(
      /<a\b[^>]*\bhref\s*=\s*["']([^"']*)["'][^>]*>([\s\S]*?)<\/a\s*>/gi,
      (_all, href: string, text: string) =>
        text.trim() && text.trim() !== href ? `${text} (${href})` : href,
    )
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/(p|div|h[1-6]|tr|table|ul|ol|blockquote|pre)\s*>/gi, '\n\n')
    .replace(/<\/t[dh]\s*>/gi, '\t')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (entity, code: string) => {
      if (code.startsWith('#')) {
        const point =
          code[1]?.toLowerCase() === 'x' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
        return Number.isInteger(point) && point > 0 && point <= 0x10ffff
          ? String.fromCodePoint(point)
          : entity;
      }
      return ENTITIES[code.toLowerCase()] ?? entity;
    })
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
