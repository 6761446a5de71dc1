import { act, render } from '@testing-library/react';
import { expect, it } from 'vitest';
import { useExternalStore } from './use-external-store';

function createStore(initial: string) {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get: () => value,
    set: (next: string) => {
      value = next;
      listeners.forEach((listener) => listener());
    },
  };
}

it('renders the server snapshot first, then the store value, then follows the store', () => {
  const store = createStore('client');
  const seen: string[] = [];
  function Probe() {
    const value = useExternalStore(store.subscribe, store.get, () => 'server');
    seen.push(value);
    return <output>{value}</output>;
  }
  const { container } = render(<Probe />);
  expect(seen[0]).toBe('server');
  expect(container.textContent).toBe('client');
  act(() => store.set('changed'));
  expect(container.textContent).toBe('changed');
});
