// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { deferEntryScript, withoutSuspenseMarkers } from './build-steps';

const BUILT_HOME = `<!doctype html>
<html lang="en">
  <head>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/preact.module-def.js">
    <link rel="manifest" href="/manifest.webmanifest" />
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe('deferEntryScript', () => {
  const page = deferEntryScript(BUILT_HOME, '/assets/market-main-ghi.js');
  const [head = '', body = ''] = page.split('<body>');

  it('leaves no script, module preload or manifest request before the first paint', () => {
    expect(head).not.toMatch(/<script[^>]*src=/);
    expect(page).not.toContain('<link rel="modulepreload"');
    expect(head).toContain('<noscript><link rel="manifest" href="/manifest.webmanifest" /></noscript>');
  });

  it('has the loader create the entry, its shared chunks, the manifest and the market script', () => {
    const loader = /<script>(\(function\(\)\{.*\}\)\(\))<\/script>/.exec(body)?.[1] ?? '';
    expect(loader).toContain(`p.rel='modulepreload'`);
    expect(loader).toContain('p.href="/assets/preact.module-def.js"');
    expect(loader).toContain('s.src="/assets/index-abc.js"');
    expect(loader).toContain('m.href="/manifest.webmanifest"');
    expect(loader).toContain('k.src="/assets/market-main-ghi.js"');
    // The preload goes in first, so the shared chunk is fetched alongside the entry, not after it.
    expect(loader.indexOf('preact.module-def.js')).toBeLessThan(loader.indexOf('index-abc.js'));
    expect(() => new Function(loader)).not.toThrow();
  });

  it('refuses a page without its entry script', () => {
    expect(() => deferEntryScript('<html><body></body></html>', '/m.js')).toThrow(/no module entry script/);
  });
});

describe('withoutSuspenseMarkers', () => {
  it("removes React's Suspense boundary comments and keeps everything else, text separators included", () => {
    const html = '<div><!--$--><header>a<!-- -->b</header><!--/$--><!--$--><main></main><!--/$--></div>';
    expect(withoutSuspenseMarkers(html)).toBe('<div><header>a<!-- -->b</header><main></main></div>');
  });
});
