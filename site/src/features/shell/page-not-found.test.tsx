import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PageNotFound } from './page-not-found';
import type { CurrentUser } from './use-current-user';

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
});

function renderWithUser(current: CurrentUser, pathname = '/royal/vault') {
  // The ['user'] query is answered up front, as if me() had returned, so nothing reaches the network.
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(['user'], current);
  act(() =>
    root.render(
      <QueryClientProvider client={client}>
        <PageNotFound pathname={pathname} />
      </QueryClientProvider>,
    ),
  );
}

describe('PageNotFound', () => {
  it('echoes the path with the template texts and a Go Home button', () => {
    renderWithUser({ user: null, isAuthenticated: false });
    expect(container.textContent).toContain('404');
    expect(container.querySelector('h1')?.textContent).toBe('Page Not Found');
    expect(container.textContent).toContain('The page "royal/vault" could not be found in this application.');
    expect([...container.querySelectorAll('button')].map((button) => button.textContent)).toContain(
      'Go Home',
    );
  });

  it('shows the Admin Note to an admin', () => {
    renderWithUser({ user: { id: 'u1', role: 'admin' }, isAuthenticated: true });
    expect(container.textContent).toContain('Admin Note');
    expect(container.textContent).toContain(
      "This could mean that the AI hasn't implemented this page yet. Ask it to implement it in the chat.",
    );
  });

  it('hides the Admin Note from a plain user and from visitors', () => {
    renderWithUser({ user: { id: 'u2', role: 'user' }, isAuthenticated: true });
    expect(container.textContent).not.toContain('Admin Note');
    act(() => root.unmount());
    root = createRoot(container);
    renderWithUser({ user: null, isAuthenticated: false });
    expect(container.textContent).not.toContain('Admin Note');
  });
});
