import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setUpReactRoot } from '../../../testing/react-root';
import { toasts } from '../../../components/ui/use-toast';
import { ExternalAction } from './external-action';

const view = setUpReactRoot();

afterEach(() => {
  toasts.dispatch({ type: 'REMOVE_TOAST' });
});

describe('ExternalAction', () => {
  it('opens a configured URL in a new tab, without giving the new tab access to this page', () => {
    view.render(
      <ExternalAction href="https://t.me/queen" label="Telegram" className="x">
        Join Chat
      </ExternalAction>,
    );
    const link = view.container.querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://t.me/queen');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(link?.getAttribute('rel')).toContain('noopener');
    expect(view.container.querySelector('button')).toBeNull();
  });

  it('without a URL is a disabled "coming soon" button that says so when pressed', async () => {
    view.render(
      <ExternalAction href="" label="Telegram" className="x">
        Join Chat
      </ExternalAction>,
    );
    expect(view.container.querySelector('a')).toBeNull();
    const button = view.container.querySelector('button');
    expect(button?.getAttribute('aria-disabled')).toBe('true');
    expect(button?.getAttribute('aria-label')).toBe('Telegram (coming soon)');
    act(() => button?.click());
    // The toast store loads on first use.
    await vi.waitFor(() => expect(toasts.getState().toasts[0]?.title).toBe('Telegram is coming soon'));
  });
});
