import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { setUpReactRoot } from '../../testing/react-root';
import { PageNotFound } from './page-not-found';
import type { CurrentUser } from './use-current-user';

const view = setUpReactRoot();

function renderWithUser(current: CurrentUser, pathname = '/royal/vault') {
  // The ['user'] query is answered up front, as if me() had returned, so nothing reaches the network.
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(['user'], current);
  view.render(
    <QueryClientProvider client={client}>
      <PageNotFound pathname={pathname} />
    </QueryClientProvider>,
  );
}

describe('PageNotFound', () => {
  it('echoes the path with the template texts and a Go Home button', () => {
    renderWithUser({ user: null, isAuthenticated: false });
    expect(view.container.textContent).toContain('404');
    expect(view.container.querySelector('h1')?.textContent).toBe('Page Not Found');
    expect(view.container.textContent).toContain(
      'The page "royal/vault" could not be found in this application.',
    );
    expect([...view.container.querySelectorAll('button')].map((button) => button.textContent)).toContain(
      'Go Home',
    );
  });

  it('shows the Admin Note to an admin', () => {
    renderWithUser({ user: { id: 'u1', role: 'admin' }, isAuthenticated: true });
    expect(view.container.textContent).toContain('Admin Note');
    expect(view.container.textContent).toContain(
      "This could mean that the AI hasn't implemented this page yet. Ask it to implement it in the chat.",
    );
  });

  it('hides the Admin Note from a plain user and from visitors', () => {
    renderWithUser({ user: { id: 'u2', role: 'user' }, isAuthenticated: true });
    expect(view.container.textContent).not.toContain('Admin Note');
    view.remount();
    renderWithUser({ user: null, isAuthenticated: false });
    expect(view.container.textContent).not.toContain('Admin Note');
  });
});
