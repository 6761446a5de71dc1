import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, FRAME_ANCESTOR_SOURCE, inlineScriptHashes } from './content-security-policy';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('inlineScriptHashes', () => {
  it('hashes executable inline scripts only, once each', () => {
    const page =
      '<script>one()</script><script type="module">two()</script>' +
      '<script id="app-boot" type="application/json">{"a":1}</script>' +
      '<script type="module" src="/assets/x.js"></script><SCRIPT>one()</SCRIPT>';
    expect(inlineScriptHashes([page, null])).toEqual([sha('one()'), sha('two()')]);
  });
});

describe('contentSecurityPolicy', () => {
  it('allows the hashed scripts and the given frame ancestors', () => {
    const policy = contentSecurityPolicy({ scriptHashes: [sha('x')], frameAncestors: "'none'" });
    expect(policy).toContain(`script-src 'self' ${sha('x')}`);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it.each(["'self'", "'none'", '*', 'https://*.base44.com', 'http://127.0.0.1:8080'])(
    'accepts the frame ancestor %s',
    (source) => expect(FRAME_ANCESTOR_SOURCE.test(source)).toBe(true),
  );
  it.each(['https://a.com;script-src *', 'javascript:', "'unsafe-inline'", 'https://a.com/path'])(
    'refuses the frame ancestor %s',
    (source) => expect(FRAME_ANCESTOR_SOURCE.test(source)).toBe(false),
  );
});
