import type * as HydrationSlices from './hydration-slices';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { withoutSuspenseMarkers } from '../../scripts/build-steps';
import { clickAll, sameButtons, SERVER_HTML, SlicedTree } from '../testing/sliced-tree';

// Home's browser bundle runs on preact/compat (scripts/home-runtime.ts): the same checks as
// hydration-slices.test.tsx, on that runtime, hydrating the markup the build serves for the tree (React's
// prerender without its Suspense comments).
vi.mock('react', async () => await import('preact/compat'));
vi.mock('react/jsx-runtime', async () => await import('preact/jsx-runtime'));
vi.mock('react/jsx-dev-runtime', async () => await import('preact/jsx-dev-runtime'));

const { hydrate } = await import('preact/compat');
const { act } = await import('preact/test-utils');
type Slices = typeof HydrationSlices;
let slices: Slices;
let container: HTMLElement;

beforeEach(async () => {
  vi.resetModules();
  slices = await import('./hydration-slices');
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  container = document.createElement('div');
  document.body.append(container);
});

afterEach(() => {
  vi.useRealTimers();
  container.remove();
});

async function releaseNextSlice() {
  await act(async () => {
    vi.advanceTimersToNextTimer();
    await Promise.resolve();
  });
}

it('hydrates one slice per task, in order, keeping the prerendered DOM, then says all are live', async () => {
  const clicks: string[] = [];
  const built = withoutSuspenseMarkers(SERVER_HTML);
  container.innerHTML = built;
  const prerendered = [...container.querySelectorAll('button')];
  let live = false;
  slices.startHydrationSlices();
  void slices.slicesHydrated().then(() => (live = true));
  act(() => {
    hydrate(<SlicedTree clicks={clicks} Slice={slices.HydrationSlice} />, container);
  });
  expect(container.innerHTML).toBe(built);
  expect(sameButtons(container, prerendered)).toBe(true);
  expect(clickAll(container, clicks)).toEqual([]);

  await releaseNextSlice();
  expect(clickAll(container, clicks)).toEqual(['a']);
  expect(live).toBe(false);

  await releaseNextSlice();
  expect(clickAll(container, clicks)).toEqual(['a', 'b']);
  expect(container.innerHTML).toBe(built);
  expect(sameButtons(container, prerendered)).toBe(true);
  await Promise.resolve();
  expect(live).toBe(true);
});
