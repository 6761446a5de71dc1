import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BOOT_MARKER,
  bootScript,
  HEAD_MARKER,
  HTML_MARKER,
  NO_BOOT_DATA,
  parseBootData,
  serializeJsonForScript,
  type BootData,
} from './page-contract';

describe('serializeJsonForScript', () => {
  it('escapes < and line separators so the script cannot be closed early', () => {
    const text = serializeJsonForScript({ x: '</script><!-- \u2028\u2029' });
    expect(text).not.toContain('<');
    expect(text).toContain('\\u003c/script>');
    expect(text).toContain('\\u2028');
    expect(text).toContain('\\u2029');
    expect(JSON.parse(text)).toEqual({ x: '</script><!-- \u2028\u2029' });
  });
});

describe('boot data', () => {
  const data: BootData = {
    appId: 'queen',
    publicSettings: { id: 'queen', public_settings: 'public_without_login' },
    heroImageUrl: '/media/hero.webp',
  };

  it('reads back what the server writes', () => {
    const script = bootScript(data);
    const text = /<script id="app-boot" type="application\/json">(.*)<\/script>/.exec(script)?.[1];
    expect(parseBootData(text)).toEqual(data);
  });

  it('reads back a hosted app’s name, and only a non-empty string', () => {
    const text = (value: unknown) =>
      /<script id="app-boot" type="application\/json">(.*)<\/script>/.exec(
        bootScript({ ...data, hostedAppName: value as string }),
      )?.[1];
    expect(parseBootData(text('Camp Planner'))).toEqual({ ...data, hostedAppName: 'Camp Planner' });
    expect(parseBootData(text(''))).toEqual(data);
    expect(parseBootData(text(42))).toEqual(data);
  });

  it('reads back the sign-in providers: known ones, once each, in button order, with a sane SSO name', () => {
    const read = (extra: object) => parseBootData(JSON.stringify({ ...data, ...extra }));
    expect(read({ signInProviders: ['sso', 'google'], ssoName: ' Okta ' })).toEqual({
      ...data,
      signInProviders: ['google', 'sso'],
      ssoName: 'Okta',
    });
    expect(read({ signInProviders: ['google', 'google', 'myspace', 7] })).toEqual({
      ...data,
      signInProviders: ['google'],
    });
    expect(read({ signInProviders: ['sso'], ssoName: 'x'.repeat(61) })).toEqual({
      ...data,
      signInProviders: ['sso'],
    });
    // No provider: no SSO name either, and the page is as it was.
    expect(read({ signInProviders: 'google', ssoName: 'Okta' })).toEqual(data);
    expect(read({ signInProviders: [] })).toEqual(data);
  });

  it.each([undefined, null, '', 'not json', 'null', '42', '{"appId":7,"publicSettings":{"id":1}}'])(
    'reads %j as unknown',
    (text) => expect(parseBootData(text)).toEqual(NO_BOOT_DATA),
  );
});

describe('page templates', () => {
  // The build fills HEAD and HTML, the server fills BOOT: a template without one serves a broken page.
  it.each(['index.html', 'login.html'])('%s holds every marker', (page) => {
    const html = readFileSync(resolve(import.meta.dirname, '../..', page), 'utf8');
    for (const marker of [HEAD_MARKER, BOOT_MARKER, HTML_MARKER]) expect(html).toContain(marker);
  });
});
