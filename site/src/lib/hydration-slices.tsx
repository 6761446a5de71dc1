import { Suspense, useEffect, type ReactNode } from 'react';

// Hydration in slices: Home hydrates in one short task per slice instead of one long task after the first
// paint (bench/README.md, "Site"). While the page hydrates, each slice suspends once; both React DOM and
// preact/compat then keep the slice's prerendered DOM as it is, and hydrate it when its wait ends. Each
// wait ends in a task of its own, in the order the slices first rendered, so the browser may paint and
// answer input between them.

type Phase = 'off' | 'slicing' | 'done';

let phase: Phase = 'off';
/** waiting holds the slices that suspended and are not yet released, in the order they rendered. */
const waiting: Array<{ name: string; release: () => void }> = [];
const waits = new Map<string, Promise<void>>();
const released = new Set<string>();
const hydrated = new Set<string>();
let releaseScheduled = false;
let settle: () => void = () => undefined;
let settled: Promise<void> = Promise.resolve();

/** startHydrationSlices turns slicing on for the hydration about to start; call it only when hydrating. */
export function startHydrationSlices(): void {
  phase = 'slicing';
  settled = new Promise((resolve) => (settle = resolve));
  // Ends slicing in the next task if nothing suspended (a page without slices).
  scheduleRelease();
}

/** slicesHydrated resolves once every slice that suspended has hydrated (at once when none did). */
export function slicesHydrated(): Promise<void> {
  return settled;
}

function settleWhenAllHydrated() {
  if (phase === 'done' && [...released].every((name) => hydrated.has(name))) settle();
}

function releaseNext() {
  releaseScheduled = false;
  const next = waiting.shift();
  if (next) {
    released.add(next.name);
    next.release();
  }
  if (waiting.length) scheduleRelease();
  else {
    // A slice that renders from now on hydrates with the rest of its tree.
    phase = 'done';
    settleWhenAllHydrated();
  }
}

function scheduleRelease() {
  if (releaseScheduled) return;
  releaseScheduled = true;
  setTimeout(releaseNext, 0);
}

/** waitFor is the promise slice `name` suspends on, made (and its release queued) on its first render. */
function waitFor(name: string): Promise<void> {
  let wait = waits.get(name);
  if (!wait) {
    wait = new Promise<void>((release) => waiting.push({ name, release }));
    waits.set(name, wait);
    scheduleRelease();
  }
  return wait;
}

function SliceGate({ name, children }: { name: string; children: ReactNode }) {
  // Runs after the effects of the slice's own components, so the page is marked live only once they ran.
  useEffect(() => {
    hydrated.add(name);
    settleWhenAllHydrated();
  }, [name]);
  // React's way to suspend: the nearest Suspense boundary keeps the server's HTML until the wait ends.
  if (phase === 'slicing' && !released.has(name)) throw waitFor(name);
  return children;
}

/**
 * HydrationSlice hydrates its children (one root element: preact/compat keeps one DOM node per suspended
 * slice) in a task of their own when the page hydrates; otherwise it renders them as they are. `name` is
 * unique on the page.
 */
export function HydrationSlice({ name, children }: { name: string; children: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <SliceGate name={name}>{children}</SliceGate>
    </Suspense>
  );
}
