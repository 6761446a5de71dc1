import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toasts } from '../../../components/ui/use-toast';
import { ExternalAction } from './external-action';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  toasts.dispatch({ type: 'REMOVE_TOAST' });
});

describe('ExternalAction', () => {
  it('opens a configured URL in a new tab, without giving the new tab access to this page', () => {
    act(() =>
      root.render(
        <ExternalAction href="https://t.me/queen" label="Telegram" className="x">
          Join Chat
        </ExternalAction>,
      ),
    );
    const link = container.querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://t.me/queen');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(link?.getAttribute('rel')).toContain('noopener');
    expect(container.querySelector('button')).toBeNull();
  });

  it('without a URL is a disabled "coming soon" button that says so when pressed', async () => {
    act(() =>
      root.render(
        <ExternalAction href="" label="Telegram" className="x">
          Join Chat
        </ExternalAction>,
      ),
    );
    expect(container.querySelector('a')).toBeNull();
    const button = container.querySelector('button');
    expect(button?.getAttribute('aria-disabled')).toBe('true');
    expect(button?.getAttribute('aria-label')).toBe('Telegram (coming soon)');
    act(() => button?.click());
    // The toast store loads on first use.
    await vi.waitFor(() => expect(toasts.getState().toasts[0]?.title).toBe('Telegram is coming soon'));
  });
});
