import { afterEach, describe, expect, it, vi } from 'vitest';
import { isTrustedServerUrl, readAppParams } from './app-params';
import type { AppParamsEnv } from './app-params';

const ORIGIN = 'https://site.test';
const ALLOWED = 'https://api.allowed.test';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: vi.fn((key: string) => data.get(key) ?? null),
    setItem: vi.fn((key: string, value: string) => {
      data.set(key, value);
    }),
    removeItem: vi.fn((key: string) => {
      data.delete(key);
    }),
  };
}

function fakeHistory() {
  return { state: { marker: 'history-state' }, replaceState: vi.fn() };
}

function makeEnv(path: string, overrides: Partial<AppParamsEnv> = {}) {
  const storage = memoryStorage();
  const history = fakeHistory();
  const env: AppParamsEnv = {
    location: { href: `${ORIGIN}${path}`, origin: ORIGIN },
    storage,
    history,
    title: 'Page title',
    defaultAppId: null,
    allowedServerOrigins: [ALLOWED],
    ...overrides,
  };
  return { env, storage, history };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('readAppParams: template precedence', () => {
  it('uses and stores a URL value over the default and the stored value', () => {
    const storage = memoryStorage({ base44_app_id: 'stored-app', base44_functions_version: 'v-old' });
    const { env } = makeEnv('/?app_id=url-app&functions_version=v2', {
      storage,
      defaultAppId: 'default-app',
    });
    const params = readAppParams(env);
    expect(params.appId).toBe('url-app');
    expect(params.functionsVersion).toBe('v2');
    expect(storage.data.get('base44_app_id')).toBe('url-app');
    expect(storage.data.get('base44_functions_version')).toBe('v2');
  });

  it('stores and uses a truthy default when the URL has no value', () => {
    const storage = memoryStorage({ base44_app_id: 'stored-app' });
    const { env } = makeEnv('/', { storage, defaultAppId: 'default-app' });
    expect(readAppParams(env).appId).toBe('default-app');
    expect(storage.data.get('base44_app_id')).toBe('default-app');
  });

  it('treats an empty URL value as absent', () => {
    const storage = memoryStorage({ base44_app_id: 'stored-app' });
    const { env } = makeEnv('/?app_id=', { storage });
    expect(readAppParams(env).appId).toBe('stored-app');
    expect(storage.data.get('base44_app_id')).toBe('stored-app');
  });

  it('falls back to the stored value without writing it again', () => {
    const storage = memoryStorage({
      base44_app_id: 'stored-app',
      base44_access_token: 'stored-token',
      base44_functions_version: 'v1',
    });
    const { env, history } = makeEnv('/page', { storage, defaultAppId: '' });
    const params = readAppParams(env);
    expect(params.appId).toBe('stored-app');
    expect(params.token).toBe('stored-token');
    expect(params.functionsVersion).toBe('v1');
    expect(storage.setItem).not.toHaveBeenCalledWith('base44_app_id', expect.anything());
    expect(storage.setItem).not.toHaveBeenCalledWith('base44_access_token', expect.anything());
    expect(history.replaceState).not.toHaveBeenCalled();
  });

  it('gives null when nothing provides a value', () => {
    const { env } = makeEnv('/');
    expect(readAppParams(env)).toEqual({
      appId: null,
      serverUrl: '',
      token: null,
      fromUrl: `${ORIGIN}/`,
      functionsVersion: null,
    });
  });

  it('works without storage or history', () => {
    const { env } = makeEnv('/?app_id=a&access_token=t', { storage: null, history: null });
    expect(readAppParams(env)).toEqual({
      appId: 'a',
      serverUrl: '',
      token: 't',
      fromUrl: `${ORIGIN}/?app_id=a`,
      functionsVersion: null,
    });
  });
});

describe('readAppParams: access_token', () => {
  it('stores the token and strips it from the URL, keeping other params and the hash', () => {
    const { env, storage, history } = makeEnv('/page?app_id=a&access_token=secret&x=1#section');
    const params = readAppParams(env);

    expect(params.token).toBe('secret');
    expect(storage.data.get('base44_access_token')).toBe('secret');
    expect(history.replaceState).toHaveBeenCalledTimes(1);
    expect(history.replaceState).toHaveBeenCalledWith(
      { marker: 'history-state' },
      'Page title',
      '/page?app_id=a&x=1#section',
    );
    expect(params.fromUrl).toBe(`${ORIGIN}/page?app_id=a&x=1#section`);
    expect(storage.data.get('base44_from_url')).toBe(`${ORIGIN}/page?app_id=a&x=1#section`);
  });

  it('leaves no dangling "?" when the token was the only parameter', () => {
    const { env, history } = makeEnv('/page?access_token=secret');
    const params = readAppParams(env);
    expect(history.replaceState).toHaveBeenCalledWith(expect.anything(), 'Page title', '/page');
    expect(params.fromUrl).toBe(`${ORIGIN}/page`);
  });

  it('does not touch history when there is no token in the URL', () => {
    const { env, history } = makeEnv('/page?x=1#h');
    expect(readAppParams(env).fromUrl).toBe(`${ORIGIN}/page?x=1#h`);
    expect(history.replaceState).not.toHaveBeenCalled();
  });

  it('an explicit from_url in the link wins over the current URL', () => {
    const { env } = makeEnv('/?from_url=https%3A%2F%2Feditor.test%2Fback&access_token=t');
    expect(readAppParams(env).fromUrl).toBe('https://editor.test/back');
  });

  it('fromUrl defaults to the current URL even when another one was stored', () => {
    const storage = memoryStorage({ base44_from_url: 'https://old.test/' });
    const { env } = makeEnv('/now', { storage });
    expect(readAppParams(env).fromUrl).toBe(`${ORIGIN}/now`);
    expect(storage.data.get('base44_from_url')).toBe(`${ORIGIN}/now`);
  });
});

describe('readAppParams: server_url', () => {
  it('ignores and does not store a server_url pointing at another origin', () => {
    const { env, storage } = makeEnv('/?server_url=https%3A%2F%2Fevil.test%2Fapi');
    expect(readAppParams(env).serverUrl).toBe('');
    expect(storage.data.has('base44_server_url')).toBe(false);
    expect(storage.setItem).not.toHaveBeenCalledWith('base44_server_url', expect.anything());
  });

  it('accepts a same-origin server_url (which means "this origin": empty serverUrl)', () => {
    const { env, storage } = makeEnv('/?server_url=https%3A%2F%2Fsite.test%2Fapi');
    expect(readAppParams(env).serverUrl).toBe('');
    expect(storage.data.get('base44_server_url')).toBe('https://site.test/api');
  });

  it('accepts an allowed origin and reduces it to the origin', () => {
    const { env, storage } = makeEnv('/?server_url=https%3A%2F%2Fapi.allowed.test%2Fv1%2F');
    expect(readAppParams(env).serverUrl).toBe(ALLOWED);
    expect(storage.data.get('base44_server_url')).toBe('https://api.allowed.test/v1/');
  });

  it('uses a stored allowed server URL when the link has none', () => {
    const storage = memoryStorage({ base44_server_url: `${ALLOWED}/x` });
    const { env } = makeEnv('/', { storage });
    expect(readAppParams(env).serverUrl).toBe(ALLOWED);
  });

  it('ignores a previously stored untrusted base44_server_url', () => {
    const storage = memoryStorage({ base44_server_url: 'https://evil.test' });
    const { env } = makeEnv('/', { storage });
    expect(readAppParams(env).serverUrl).toBe('');
  });

  it('an untrusted link does not replace a stored trusted one', () => {
    const storage = memoryStorage({ base44_server_url: ALLOWED });
    const { env } = makeEnv('/?server_url=https%3A%2F%2Fevil.test', { storage });
    expect(readAppParams(env).serverUrl).toBe(ALLOWED);
    expect(storage.data.get('base44_server_url')).toBe(ALLOWED);
  });

  it('an origin is not trusted merely because another origin is allowed', () => {
    const { env } = makeEnv('/?server_url=https%3A%2F%2Fapi.allowed.test.evil.test', {
      allowedServerOrigins: [ALLOWED],
    });
    expect(readAppParams(env).serverUrl).toBe('');
  });
});

describe('readAppParams: failing storage', () => {
  it('still resolves from the URL and the default when storage throws', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const storage = {
      getItem: vi.fn((): string | null => {
        throw new Error('SecurityError');
      }),
      setItem: vi.fn(() => {
        throw new Error('QuotaExceededError');
      }),
      removeItem: vi.fn(() => {
        throw new Error('SecurityError');
      }),
    };
    const { env, history } = makeEnv('/?access_token=tok&server_url=https%3A%2F%2Fapi.allowed.test', {
      storage,
      defaultAppId: 'default-app',
    });
    expect(readAppParams(env)).toEqual({
      appId: 'default-app',
      serverUrl: ALLOWED,
      token: 'tok',
      fromUrl: `${ORIGIN}/?server_url=https%3A%2F%2Fapi.allowed.test`,
      functionsVersion: null,
    });
    expect(history.replaceState).toHaveBeenCalledTimes(1);
    expect(consoleError).toHaveBeenCalled();
  });

  it('treats an unreadable storage as empty', () => {
    const storage = {
      getItem: vi.fn((): string | null => {
        throw new Error('SecurityError');
      }),
      setItem: vi.fn(),
      removeItem: vi.fn(),
    };
    const { env } = makeEnv('/', { storage });
    const params = readAppParams(env);
    expect(params.appId).toBeNull();
    expect(params.token).toBeNull();
    expect(params.serverUrl).toBe('');
  });
});

describe('isTrustedServerUrl', () => {
  it('accepts the page origin, relative URLs and allowed origins', () => {
    expect(isTrustedServerUrl('https://site.test/api', ORIGIN, [])).toBe(true);
    expect(isTrustedServerUrl('/api', ORIGIN, [])).toBe(true);
    expect(isTrustedServerUrl(`${ALLOWED}/path`, ORIGIN, [ALLOWED])).toBe(true);
  });

  it('rejects other origins, including another port or scheme', () => {
    expect(isTrustedServerUrl('https://evil.test', ORIGIN, [ALLOWED])).toBe(false);
    expect(isTrustedServerUrl('https://site.test:8443', ORIGIN, [])).toBe(false);
    expect(isTrustedServerUrl('http://site.test', ORIGIN, [])).toBe(false);
    expect(isTrustedServerUrl('//evil.test/x', ORIGIN, [])).toBe(false);
  });

  it('rejects non-http(s) schemes and malformed URLs', () => {
    expect(isTrustedServerUrl('javascript:alert(1)', ORIGIN, [])).toBe(false);
    expect(isTrustedServerUrl('data:text/html,hi', ORIGIN, [])).toBe(false);
    expect(isTrustedServerUrl('https://[', ORIGIN, [])).toBe(false);
    expect(isTrustedServerUrl('http://exa mple.com', ORIGIN, ['http://exa mple.com'])).toBe(false);
  });
});
