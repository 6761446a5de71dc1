// Shared by the React DOM and preact/compat runs of the hydration-slices tests: the same tree, hydrated
// from the markup React's prerender gives it.
import { type ReactNode } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import type * as HydrationSlices from '../lib/hydration-slices';

export const SERVER_HTML =
  '<div><!--$--><button type="button">a</button><!--/$--><!--$--><button type="button">b</button><!--/$--></div>';

export function SlicedTree({
  clicks,
  Slice,
}: {
  clicks: string[];
  Slice: (props: { name: string; children: ReactNode }) => ReactNode;
}) {
  return (
    <div>
      {['a', 'b'].map((name) => (
        <Slice key={name} name={name}>
          <button type="button" onClick={() => clicks.push(name)}>
            {name}
          </button>
        </Slice>
      ))}
    </div>
  );
}

/** clickAll clicks every button in container and returns the names the handlers recorded. */
export function clickAll(container: HTMLElement, clicks: string[]): string[] {
  clicks.length = 0;
  container.querySelectorAll('button').forEach((button) => button.click());
  return [...clicks];
}

/** sameButtons says whether container still holds exactly the button elements it held before. */
export function sameButtons(container: HTMLElement, before: Element[]): boolean {
  const now = [...container.querySelectorAll('button')];
  return now.length === before.length && now.every((button, index) => button === before[index]);
}

/**
 * sliceTestContext gives each test a fresh copy of the slices module (it keeps its phase in module state),
 * fake `setTimeout` for the slices' releases only (a runtime's scheduler keeps its real timers) and an
 * attached container; read its fields inside tests.
 */
export function sliceTestContext(): { slices: typeof HydrationSlices; container: HTMLElement } {
  const context = {} as { slices: typeof HydrationSlices; container: HTMLElement };
  beforeEach(async () => {
    vi.resetModules();
    context.slices = await import('../lib/hydration-slices');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    context.container = document.createElement('div');
    document.body.append(context.container);
  });
  afterEach(() => {
    vi.useRealTimers();
    context.container.remove();
  });
  return context;
}
