// The one way React tests render: Testing Library's render (inside act, so effects have run when it
// returns), unmounted after each test, and queried the way a visitor finds things: by role and label
// (`screen.getByRole('button', { name: 'Sign in' })`, `screen.getByLabelText('Email')`).
import { cleanup, render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach } from 'vitest';

export { act, fireEvent, screen, waitFor, within } from '@testing-library/react';

afterEach(cleanup);

/** renderUi renders node into a fresh container attached to the document (removed after the test). */
export function renderUi(node: ReactNode): RenderResult {
  return render(node);
}
