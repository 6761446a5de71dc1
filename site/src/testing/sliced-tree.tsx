// Shared by the React DOM and preact/compat runs of the hydration-slices tests: the same tree, hydrated
// from the markup React's prerender gives it.
import { type ReactNode } from 'react';

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
