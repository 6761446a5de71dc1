import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { afterPageLoad } from './after-page-load';

/** idle holds the pending idle callbacks by handle, as the browser would. */
let idle = new Map<number, IdleRequestCallback>();
let nextHandle = 1;

function setReadyState(state: DocumentReadyState) {
  Object.defineProperty(document, 'readyState', { get: () => state, configurable: true });
}

beforeEach(() => {
  idle = new Map();
  vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => {
    idle.set(nextHandle, callback);
    return nextHandle++;
  });
  vi.stubGlobal('cancelIdleCallback', (handle: number) => idle.delete(handle));
});

afterEach(() => {
  vi.unstubAllGlobals();
  delete (document as { readyState?: unknown }).readyState;
});

const runIdle = () => {
  const pending = [...idle.values()];
  idle.clear();
  for (const callback of pending) callback({} as IdleDeadline);
};

it('waits for the load event, then for an idle moment', () => {
  setReadyState('loading');
  const callback = vi.fn();
  afterPageLoad(callback);
  runIdle();
  expect(callback).not.toHaveBeenCalled();
  window.dispatchEvent(new Event('load'));
  expect(callback).not.toHaveBeenCalled();
  runIdle();
  expect(callback).toHaveBeenCalledOnce();
});

it('on a page already loaded, waits only for an idle moment', () => {
  setReadyState('complete');
  const callback = vi.fn();
  afterPageLoad(callback);
  expect(callback).not.toHaveBeenCalled();
  runIdle();
  expect(callback).toHaveBeenCalledOnce();
});

it('cancelled before load, it never runs', () => {
  setReadyState('loading');
  const callback = vi.fn();
  afterPageLoad(callback)();
  window.dispatchEvent(new Event('load'));
  runIdle();
  expect(callback).not.toHaveBeenCalled();
});

it('cancelled while it waits for an idle moment, it never runs', () => {
  setReadyState('complete');
  const callback = vi.fn();
  const cancel = afterPageLoad(callback);
  expect(idle.size).toBe(1);
  cancel();
  runIdle();
  expect(callback).not.toHaveBeenCalled();
});

it('without requestIdleCallback (Safari), it runs in a task after load', async () => {
  vi.stubGlobal('requestIdleCallback', undefined);
  setReadyState('complete');
  const callback = vi.fn();
  afterPageLoad(callback);
  expect(callback).not.toHaveBeenCalled();
  await new Promise((resolve) => setTimeout(resolve, 5));
  expect(callback).toHaveBeenCalledOnce();
});
