import { act } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { beforeAll, expect, it, vi } from 'vitest';
import { clickAll, SERVER_HTML, SlicedTree, sliceTestContext } from '../testing/sliced-tree';

// The dev server and the unit tests run React DOM; Home's browser bundle runs preact/compat
// (hydration-slices.preact.test.tsx). Each test gets a fresh copy of the module (sliceTestContext).
const test = sliceTestContext();
beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
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
  expect(renderToString(<SlicedTree clicks={[]} Slice={test.slices.HydrationSlice} />)).toBe(SERVER_HTML);
});

it('hydrates one slice per task, in order, keeping the prerendered DOM, then says all are live', async () => {
  const clicks: string[] = [];
  test.container.innerHTML = SERVER_HTML;
  let live = false;
  test.slices.startHydrationSlices();
  void test.slices.slicesHydrated().then(() => (live = true));
  await act(async () => {
    hydrateRoot(test.container, <SlicedTree clicks={clicks} Slice={test.slices.HydrationSlice} />);
  });
  expect(test.container.innerHTML).toBe(SERVER_HTML);
  expect(clickAll(test.container, clicks)).toEqual([]);

  await releaseNextSlice();
  expect(clickAll(test.container, clicks)).toEqual(['a']);
  expect(live).toBe(false);

  await releaseNextSlice();
  expect(clickAll(test.container, clicks)).toEqual(['a', 'b']);
  expect(test.container.innerHTML).toBe(SERVER_HTML);
  expect(live).toBe(true);
});

it('renders at once, and is live at once, when the page is rendered rather than hydrated', async () => {
  const clicks: string[] = [];
  await act(async () => {
    createRoot(test.container).render(<SlicedTree clicks={clicks} Slice={test.slices.HydrationSlice} />);
  });
  expect(clickAll(test.container, clicks)).toEqual(['a', 'b']);
  await expect(test.slices.slicesHydrated()).resolves.toBeUndefined();
});

it('ends slicing in the next task when nothing suspends (a page without slices)', async () => {
  let live = false;
  test.slices.startHydrationSlices();
  void test.slices.slicesHydrated().then(() => (live = true));
  await vi.advanceTimersToNextTimerAsync();
  expect(live).toBe(true);
});
