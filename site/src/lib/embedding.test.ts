import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  appErrorMessage,
  componentNameFromStack,
  postAppError,
  postUrlChanged,
  urlWithoutToken,
  watchLocation,
} from './embedding';

/** embedInParent makes `window.parent` a different window whose postMessage is a spy. */
function embedInParent() {
  const postMessage = vi.fn();
  Object.defineProperty(window, 'parent', { value: { postMessage }, configurable: true, writable: true });
  return postMessage;
}

const parentDescriptor = Object.getOwnPropertyDescriptor(window, 'parent');

function restoreParent() {
  if (parentDescriptor) {
    Object.defineProperty(window, 'parent', parentDescriptor);
  } else {
    delete (window as { parent?: unknown }).parent;
  }
}

afterEach(() => {
  restoreParent();
  vi.restoreAllMocks();
});

describe('urlWithoutToken', () => {
  it('removes access_token and keeps the rest', () => {
    expect(urlWithoutToken('https://site.test/page?a=1&access_token=secret&b=2#hash')).toBe(
      'https://site.test/page?a=1&b=2#hash',
    );
  });

  it('removes every access_token occurrence', () => {
    expect(urlWithoutToken('https://site.test/?access_token=a&access_token=b')).toBe('https://site.test/');
  });

  it('returns a URL without a token unchanged', () => {
    const href = 'https://site.test/page?a=1&b=%20x#h';
    expect(urlWithoutToken(href)).toBe(href);
  });
});

describe('componentNameFromStack', () => {
  it('finds the first capitalised frame in V8 and Firefox stacks', () => {
    expect(
      componentNameFromStack('\n    at div\n    at HeroSection (http://x/hero.tsx:1:1)\n    at App (x)'),
    ).toBe('HeroSection');
    expect(componentNameFromStack('render@http://x/a.js:1:1\nHeroSection@http://x/hero.tsx:1:1')).toBe(
      'HeroSection',
    );
    expect(componentNameFromStack('    at div\n    at main')).toBeNull();
    expect(componentNameFromStack(undefined)).toBeNull();
  });
});

describe('appErrorMessage', () => {
  it.each([
    ['status', { status: 402 }],
    ['response.status', { response: { status: 402 } }],
    ['originalError.response.status', { originalError: { response: { status: 402 } } }],
  ])('returns null for a 402 in %s', (_label, shape) => {
    expect(appErrorMessage(Object.assign(new Error('Payment required'), shape))).toBeNull();
    expect(appErrorMessage(shape, 'Widget')).toBeNull();
  });

  it('reports other statuses', () => {
    expect(appErrorMessage(Object.assign(new Error('Nope'), { status: 403 }))).not.toBeNull();
  });

  it('titles the error with a known component name and sends the stack as details', () => {
    const error = new TypeError('boom');
    error.stack = 'TypeError: boom\n    at Unrelated (http://x/u.js:1:1)';
    expect(appErrorMessage(error, 'HeroSection')).toEqual({
      type: 'app_error',
      error: {
        title: 'Error in HeroSection: TypeError: boom',
        details: 'TypeError: boom\n    at Unrelated (http://x/u.js:1:1)',
        componentName: 'HeroSection',
      },
    });
  });

  it('falls back to the component name in the stack', () => {
    const error = new Error('bad');
    error.stack = 'Error: bad\n    at Countdown (http://x/countdown.tsx:3:9)';
    for (const name of [undefined, null]) {
      expect(appErrorMessage(error, name)?.error).toEqual({
        title: 'Error in Countdown: Error: bad',
        details: error.stack,
        componentName: 'Countdown',
      });
    }
  });

  it('uses the plain text when no component is known', () => {
    const error = new RangeError('out');
    error.stack = 'RangeError: out\n    at helper (http://x/a.js:1:1)';
    expect(appErrorMessage(error)?.error).toEqual({
      title: 'RangeError: out',
      details: 'RangeError: out\n    at helper (http://x/a.js:1:1)',
      componentName: null,
    });
  });

  it('stringifies non-Error values', () => {
    expect(appErrorMessage('just a string')).toEqual({
      type: 'app_error',
      error: { title: 'just a string', details: 'just a string', componentName: null },
    });
  });
});

describe('posting to the parent window', () => {
  it('does nothing when not embedded', () => {
    expect(window.parent).toBe(window);
    const own = vi.spyOn(window, 'postMessage').mockImplementation(() => undefined);
    postUrlChanged('https://site.test/?access_token=x');
    postAppError(new Error('boom'));
    expect(own).not.toHaveBeenCalled();
  });

  it('postUrlChanged sends the URL without the token', () => {
    const postMessage = embedInParent();
    postUrlChanged('https://site.test/page?access_token=secret&x=1');
    expect(postMessage).toHaveBeenCalledTimes(1);
    expect(postMessage).toHaveBeenCalledWith(
      { type: 'app_changed_url', url: 'https://site.test/page?x=1' },
      '*',
    );
  });

  it('postAppError sends the app_error payload', () => {
    const postMessage = embedInParent();
    const error = new Error('boom');
    postAppError(error, 'Navbar');
    expect(postMessage).toHaveBeenCalledTimes(1);
    expect(postMessage).toHaveBeenCalledWith(appErrorMessage(error, 'Navbar'), '*');
    expect(postMessage.mock.calls[0]?.[0]).toMatchObject({
      type: 'app_error',
      error: { title: 'Error in Navbar: Error: boom', componentName: 'Navbar' },
    });
  });

  it('postAppError sends nothing for a 402', () => {
    const postMessage = embedInParent();
    postAppError(Object.assign(new Error('Payment required'), { response: { status: 402 } }));
    postAppError({ status: 402 });
    expect(postMessage).not.toHaveBeenCalled();
  });
});

describe('watchLocation', () => {
  const start = window.location.href;
  let stop: (() => void) | undefined;

  beforeEach(() => {
    window.history.replaceState(null, '', '/start');
  });

  afterEach(() => {
    stop?.();
    stop = undefined;
    window.history.replaceState(null, '', start);
  });

  it('fires immediately with the current URL', () => {
    const onChange = vi.fn();
    stop = watchLocation(onChange);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith(window.location.href);
    expect(window.location.pathname).toBe('/start');
  });

  it('fires on pushState and replaceState to a new URL', () => {
    const onChange = vi.fn();
    stop = watchLocation(onChange);
    window.history.pushState({}, '', '/pushed?q=1');
    expect(onChange).toHaveBeenCalledTimes(2);
    expect(onChange).toHaveBeenLastCalledWith(`${window.location.origin}/pushed?q=1`);

    window.history.replaceState({}, '', '/replaced');
    expect(onChange).toHaveBeenCalledTimes(3);
    expect(onChange).toHaveBeenLastCalledWith(`${window.location.origin}/replaced`);
    expect(window.location.pathname).toBe('/replaced');
  });

  it('does not fire on a replaceState to the same URL', () => {
    const onChange = vi.fn();
    stop = watchLocation(onChange);
    window.history.replaceState({ other: 'state' }, '', window.location.href);
    window.history.pushState({}, '', '/start');
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('fires on hashchange and popstate when the URL changed', () => {
    const onChange = vi.fn();
    const silentReplace = window.history.replaceState.bind(window.history);
    stop = watchLocation(onChange);

    silentReplace(null, '', '/start#section');
    expect(onChange).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(onChange).toHaveBeenCalledTimes(2);
    expect(onChange).toHaveBeenLastCalledWith(`${window.location.origin}/start#section`);

    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(onChange).toHaveBeenCalledTimes(2);

    silentReplace(null, '', '/back');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(onChange).toHaveBeenCalledTimes(3);
    expect(onChange).toHaveBeenLastCalledWith(`${window.location.origin}/back`);
  });

  it('fires when the hash is changed through location (the browser dispatches hashchange)', async () => {
    const onChange = vi.fn();
    stop = watchLocation(onChange);
    window.location.hash = '#roadmap';
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(2));
    expect(onChange).toHaveBeenLastCalledWith(`${window.location.origin}/start#roadmap`);
  });

  it('stops after cleanup and restores history methods', () => {
    const { pushState, replaceState } = window.history;
    const onChange = vi.fn();
    const cleanup = watchLocation(onChange);
    expect(window.history.pushState).not.toBe(pushState);

    cleanup();
    expect(window.history.pushState).toBe(pushState);
    expect(window.history.replaceState).toBe(replaceState);

    window.history.pushState({}, '', '/after');
    window.history.replaceState({}, '', '/after-2');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});
