import { expect, it, vi } from 'vitest';
import { withoutSuspenseMarkers } from '../../scripts/build-steps';
import { clickAll, sameButtons, SERVER_HTML, SlicedTree, sliceTestContext } from '../testing/sliced-tree';

// Home's browser bundle runs on preact/compat (scripts/home-runtime.ts): the same checks as
// hydration-slices.test.tsx, on that runtime, hydrating the markup the build serves for the tree (React's
// prerender without its Suspense comments).
vi.mock('react', async () => await import('preact/compat'));
vi.mock('react/jsx-runtime', async () => await import('preact/jsx-runtime'));
vi.mock('react/jsx-dev-runtime', async () => await import('preact/jsx-dev-runtime'));

const { hydrate } = await import('preact/compat');
const { act } = await import('preact/test-utils');
const test = sliceTestContext();

async function releaseNextSlice() {
  await act(async () => {
    vi.advanceTimersToNextTimer();
    await Promise.resolve();
  });
}

it('hydrates one slice per task, in order, keeping the prerendered DOM, then says all are live', async () => {
  const clicks: string[] = [];
  const built = withoutSuspenseMarkers(SERVER_HTML);
  test.container.innerHTML = built;
  const prerendered = [...test.container.querySelectorAll('button')];
  let live = false;
  test.slices.startHydrationSlices();
  void test.slices.slicesHydrated().then(() => (live = true));
  act(() => {
    hydrate(<SlicedTree clicks={clicks} Slice={test.slices.HydrationSlice} />, test.container);
  });
  expect(test.container.innerHTML).toBe(built);
  expect(sameButtons(test.container, prerendered)).toBe(true);
  expect(clickAll(test.container, clicks)).toEqual([]);

  await releaseNextSlice();
  expect(clickAll(test.container, clicks)).toEqual(['a']);
  expect(live).toBe(false);

  await releaseNextSlice();
  expect(clickAll(test.container, clicks)).toEqual(['a', 'b']);
  expect(test.container.innerHTML).toBe(built);
  expect(sameButtons(test.container, prerendered)).toBe(true);
  await Promise.resolve();
  expect(live).toBe(true);
});
