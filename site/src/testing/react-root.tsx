import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/**
 * setUpReactRoot gives each test a fresh container attached to the document and a React root in it,
 * unmounted and removed after the test.
 */
export function setUpReactRoot() {
  const mounted: { container: HTMLDivElement; root: Root | null } = {
    container: document.createElement('div'),
    root: null,
  };
  beforeEach(() => {
    mounted.container = document.createElement('div');
    document.body.append(mounted.container);
    mounted.root = createRoot(mounted.container);
  });
  afterEach(() => {
    act(() => mounted.root?.unmount());
    mounted.container.remove();
  });
  return {
    get container() {
      return mounted.container;
    },
    /** render renders node inside act, so effects have run when it returns. */
    render(node: ReactNode) {
      act(() => mounted.root?.render(node));
    },
    /** remount starts a new root in the same container. */
    remount() {
      act(() => mounted.root?.unmount());
      mounted.root = createRoot(mounted.container);
    },
  };
}
