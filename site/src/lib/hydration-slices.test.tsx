import { act } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import type * as HydrationSlices from './hydration-slices';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { clickAll, SERVER_HTML, SlicedTree } from '../testing/sliced-tree';

// The dev server and the unit tests run React DOM; Home's browser bundle runs preact/compat
// (hydration-slices.preact.test.tsx). The module keeps its phase in module state: a fresh copy per test.
type Slices = typeof HydrationSlices;
let slices: Slices;
let container: HTMLElement;

beforeEach(async () => {
  vi.resetModules();
  slices = await import('./hydration-slices');
  // Only the slices' own releases are faked: React's scheduler keeps its real timers.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  container = document.createElement('div');
  document.body.append(container);
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

afterEach(() => {
  vi.useRealTimers();
  container.remove();
});

/** releaseNextSlice runs the next release task, and lets React see the wait end inside act. */
async function releaseNextSlice() {
  await act(async () => {
    vi.advanceTimersToNextTimer();
    // The release resolves the slice's promise; React's listener on it runs a microtask later.
    await Promise.resolve();
  });
}

it('is the markup the prerender gives the tree (the Preact run hydrates the same)', () => {
  expect(renderToString(<SlicedTree clicks={[]} Slice={slices.HydrationSlice} />)).toBe(SERVER_HTML);
});

it('hydrates one slice per task, in order, keeping the prerendered DOM, then says all are live', async () => {
  const clicks: string[] = [];
  container.innerHTML = SERVER_HTML;
  let live = false;
  slices.startHydrationSlices();
  void slices.slicesHydrated().then(() => (live = true));
  await act(async () => {
    hydrateRoot(container, <SlicedTree clicks={clicks} Slice={slices.HydrationSlice} />);
  });
  expect(container.innerHTML).toBe(SERVER_HTML);
  expect(clickAll(container, clicks)).toEqual([]);

  await releaseNextSlice();
  expect(clickAll(container, clicks)).toEqual(['a']);
  expect(live).toBe(false);

  await releaseNextSlice();
  expect(clickAll(container, clicks)).toEqual(['a', 'b']);
  expect(container.innerHTML).toBe(SERVER_HTML);
  expect(live).toBe(true);
});

it('renders at once, and is live at once, when the page is rendered rather than hydrated', async () => {
  const clicks: string[] = [];
  await act(async () => {
    createRoot(container).render(<SlicedTree clicks={clicks} Slice={slices.HydrationSlice} />);
  });
  expect(clickAll(container, clicks)).toEqual(['a', 'b']);
  await expect(slices.slicesHydrated()).resolves.toBeUndefined();
});

it('ends slicing in the next task when nothing suspends (a page without slices)', async () => {
  let live = false;
  slices.startHydrationSlices();
  void slices.slicesHydrated().then(() => (live = true));
  await vi.advanceTimersToNextTimerAsync();
  expect(live).toBe(true);
});
