import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { renderUi, screen } from '../../testing/react-root';
import { PageNotFound } from './page-not-found';
import type { CurrentUser } from './use-current-user';

function renderWithUser(current: CurrentUser, pathname = '/royal/vault') {
  // The ['user'] query is answered up front, as if me() had returned, so nothing reaches the network.
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(['user'], current);
  return renderUi(
    <QueryClientProvider client={client}>
      <PageNotFound pathname={pathname} />
    </QueryClientProvider>,
  );
}

describe('PageNotFound', () => {
  it('echoes the path with the template texts and a Go Home button', () => {
    const { container } = renderWithUser({ user: null, isAuthenticated: false });
    expect(container.textContent).toContain('404');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Page Not Found');
    expect(container.textContent).toContain('The page "royal/vault" could not be found in this application.');
    expect(screen.getByRole('button', { name: 'Go Home' }).textContent).toBe('Go Home');
  });

  it('shows the Admin Note to an admin', () => {
    const { container } = renderWithUser({ user: { id: 'u1', role: 'admin' }, isAuthenticated: true });
    expect(container.textContent).toContain('Admin Note');
    expect(container.textContent).toContain(
      "This could mean that the AI hasn't implemented this page yet. Ask it to implement it in the chat.",
    );
  });

  it('hides the Admin Note from a plain user and from visitors', () => {
    const plainUser = renderWithUser({ user: { id: 'u2', role: 'user' }, isAuthenticated: true });
    expect(plainUser.container.textContent).not.toContain('Admin Note');
    plainUser.unmount();
    const visitor = renderWithUser({ user: null, isAuthenticated: false });
    expect(visitor.container.textContent).not.toContain('Admin Note');
  });
});
