import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mock } from 'vitest';
import type { AppErrorMessage } from '../../lib/embedding';
import { renderUi as render, screen } from '../../testing/react-root';
import { ErrorBoundary } from './error-boundary';

const parentDescriptor = Object.getOwnPropertyDescriptor(window, 'parent');

function ThrowingWidget({ error }: { error: unknown }): never {
  throw error;
}

let postMessage: Mock;

beforeEach(() => {
  postMessage = vi.fn();
  Object.defineProperty(window, 'parent', { value: { postMessage }, configurable: true, writable: true });
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  if (parentDescriptor) {
    Object.defineProperty(window, 'parent', parentDescriptor);
  } else {
    delete (window as { parent?: unknown }).parent;
  }
  vi.restoreAllMocks();
});

describe('ErrorBoundary', () => {
  it('renders its children when nothing throws', () => {
    const { container } = render(
      <ErrorBoundary>
        <p>All fine</p>
      </ErrorBoundary>,
    );
    expect(container.textContent).toBe('All fine');
    expect(postMessage).not.toHaveBeenCalled();
  });

  it('reports a render error to the embedding parent once and shows the fallback', () => {
    render(
      <ErrorBoundary>
        <ThrowingWidget error={new Error('kaboom')} />
      </ErrorBoundary>,
    );

    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Something went wrong');
    expect(screen.getByRole('button').textContent).toBe('Reload');

    expect(postMessage).toHaveBeenCalledTimes(1);
    const [message, targetOrigin] = postMessage.mock.calls[0] as [AppErrorMessage, string];
    expect(targetOrigin).toBe('*');
    expect(message.type).toBe('app_error');
    expect(message.error.title).toBe('Error in ThrowingWidget: Error: kaboom');
    expect(message.error.componentName).toBe('ThrowingWidget');
    expect(message.error.details).toContain('kaboom');
    expect(console.error).toHaveBeenCalledWith(
      'Render error:',
      expect.objectContaining({ message: 'kaboom' }),
    );
  });

  it('does not report a 402 error but still shows the fallback', () => {
    render(
      <ErrorBoundary>
        <ThrowingWidget error={Object.assign(new Error('Payment required'), { status: 402 })} />
      </ErrorBoundary>,
    );

    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Something went wrong');
    expect(postMessage).not.toHaveBeenCalled();
  });
});
