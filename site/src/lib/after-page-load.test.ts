import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { afterPageLoad } from './after-page-load';

let idle: IdleRequestCallback[] = [];

function setReadyState(state: DocumentReadyState) {
  Object.defineProperty(document, 'readyState', { get: () => state, configurable: true });
}

beforeEach(() => {
  idle = [];
  vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => idle.push(callback));
  vi.stubGlobal('cancelIdleCallback', vi.fn());
});

afterEach(() => {
  vi.unstubAllGlobals();
  delete (document as { readyState?: unknown }).readyState;
});

const runIdle = () => idle.splice(0).forEach((callback) => callback({} as IdleDeadline));

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

it('without requestIdleCallback (Safari), it runs in a task after load', async () => {
  vi.stubGlobal('requestIdleCallback', undefined);
  setReadyState('complete');
  const callback = vi.fn();
  afterPageLoad(callback);
  expect(callback).not.toHaveBeenCalled();
  await new Promise((resolve) => setTimeout(resolve, 5));
  expect(callback).toHaveBeenCalledOnce();
});
