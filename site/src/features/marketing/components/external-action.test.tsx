import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toasts } from '../../../components/ui/use-toast';
import { fireEvent, renderUi, screen } from '../../../testing/react-root';
import { listenForComingSoon } from './coming-soon';
import { ExternalAction } from './external-action';

// The page's one listener answers "coming soon" buttons, as main.tsx installs it.
let stopListening: () => void = () => undefined;
beforeEach(() => {
  stopListening = listenForComingSoon(document);
});
afterEach(() => {
  stopListening();
  toasts.dispatch({ type: 'REMOVE_TOAST' });
});

describe('ExternalAction', () => {
  it('opens a configured URL in a new tab, without giving the new tab access to this page', () => {
    renderUi(
      <ExternalAction href="https://t.me/queen" label="Telegram" className="x">
        Join Chat
      </ExternalAction>,
    );
    const link = screen.getByRole('link');
    expect(link.getAttribute('href')).toBe('https://t.me/queen');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('without a URL is a disabled "coming soon" button that says so when pressed', async () => {
    renderUi(
      <ExternalAction href="" label="Telegram" className="x">
        Join Chat
      </ExternalAction>,
    );
    expect(screen.queryByRole('link')).toBeNull();
    const button = screen.getByRole('button', { name: 'Telegram (coming soon)' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.getAttribute('aria-label')).toBe('Telegram (coming soon)');
    fireEvent.click(button);
    // The toast store loads on first use.
    await vi.waitFor(() => expect(toasts.getState().toasts[0]?.title).toBe('Telegram is coming soon'));
  });
});
