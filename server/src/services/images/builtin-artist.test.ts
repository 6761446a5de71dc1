import { describe, expect, it } from 'vitest';
import { drawImage } from './builtin-artist';

const HERO_PROMPT =
  'A majestic queen character in purple and gold armor with the Solana logo, neon digital art style, crown, regal, glowing';

function svgText(prompt: string): string {
  return drawImage(prompt).bytes.toString('utf8');
}

interface Element {
  name: string;
  attributes: string;
}

/** Checks that every tag is closed in order and returns the root element; throws on malformed markup. */
function parseRoot(xml: string): Element {
  const stack: string[] = [];
  let root: Element | undefined;
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g;
  let cursor = 0;
  for (let match = tag.exec(xml); match; match = tag.exec(xml)) {
    const between = xml.slice(cursor, match.index);
    if (between.includes('<') || between.includes('>')) throw new Error(`stray markup near ${match.index}`);
    if (/&(?!(?:amp|lt|gt|quot|apos);)/.test(between)) throw new Error(`bare ampersand near ${match.index}`);
    cursor = tag.lastIndex;
    const [, closing, name = '', attributes = '', selfClosing] = match;
    if (closing) {
      if (stack.pop() !== name) throw new Error(`mismatched </${name}>`);
      continue;
    }
    if (!root) root = { name, attributes };
    else if (stack.length === 0) throw new Error('more than one root element');
    if (!selfClosing) stack.push(name);
  }
  if (cursor !== xml.length || stack.length > 0 || !root) throw new Error('document is incomplete');
  return root;
}

describe('drawImage', () => {
  it('returns SVG bytes', () => {
    expect(drawImage(HERO_PROMPT).contentType).toBe('image/svg+xml');
  });

  it('is deterministic for the same prompt', () => {
    expect(drawImage(HERO_PROMPT).bytes.equals(drawImage(HERO_PROMPT).bytes)).toBe(true);
    expect(svgText('a cat on the moon')).toBe(svgText('a cat on the moon'));
  });

  it('draws different images for different prompts', () => {
    expect(svgText('royal crown at dawn')).not.toBe(svgText('royal crown at dusk'));
    expect(svgText('abstract waves')).not.toBe(svgText('abstract wives'));
    expect(svgText(HERO_PROMPT)).not.toBe(svgText('a sunny beach'));
  });

  it('draws the crowned queen for royal prompts', () => {
    const svg = svgText(HERO_PROMPT);
    expect(svg).toContain('id="sol"');
    expect(svg).toContain('#9945ff');
    expect(svg).toContain('#14f195');
    expect(svgText('Long live the QUEEN')).toContain('id="sol"');
    expect(svgText('a quiet harbour')).not.toContain('id="sol"');
  });

  it('escapes a hostile prompt everywhere it is interpolated', () => {
    const hostile = `</title><script>alert("x")</script><title>&amp; ' \u0000\u0007 queen`;
    const svg = svgText(hostile);
    expect(svg).not.toContain('</title><script>');
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('\u0000');
    expect(svg).toContain('&lt;/title&gt;&lt;script&gt;alert(&quot;x&quot;)');
    expect(svg).toContain('&amp;amp; &apos;');
    expect(() => parseRoot(svg)).not.toThrow();
  });

  it('is a well-formed SVG document with a 960 viewBox, a role and a title', () => {
    for (const prompt of [HERO_PROMPT, 'a moon', 'a cat', 'the sun', 'anything at all', '']) {
      const svg = svgText(prompt);
      const root = parseRoot(svg);
      expect(root.name).toBe('svg');
      expect(root.attributes).toContain('xmlns="http://www.w3.org/2000/svg"');
      expect(root.attributes).toContain('viewBox="0 0 960 960"');
      expect(root.attributes).toContain('width="960"');
      expect(root.attributes).toContain('height="960"');
      expect(root.attributes).toContain('role="img"');
      expect(svg).toMatch(/^<svg[^>]*><title>[^<]+<\/title>/);
    }
  });

  it('has no scripts, external references or fonts', () => {
    for (const prompt of [HERO_PROMPT, 'a sunny cat']) {
      const svg = svgText(prompt);
      expect(svg).not.toMatch(/<script|<image|<text|<style|href=|@import|https?:\/\/(?!www\.w3\.org)/);
    }
  });

  it('stays small enough to inline', () => {
    const longPrompt = `queen ${'x'.repeat(5000)}`;
    for (const prompt of [HERO_PROMPT, 'a moon over the sea', longPrompt]) {
      expect(drawImage(prompt).bytes.length).toBeLessThan(25 * 1024);
    }
  });
});
