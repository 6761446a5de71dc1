import { Component, type ErrorInfo, type ReactNode } from 'react';
import { componentNameFromStack, postAppError } from '../../lib/embedding';

interface Props {
  children: ReactNode;
}

/** ErrorBoundary reports render errors to an embedding parent and shows a calm fallback. */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Render error:', error);
    postAppError(error, componentNameFromStack(info.componentStack ?? undefined));
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-royal-950 p-6 text-center text-white">
        <h1 className="text-2xl font-semibold">Something went wrong</h1>
        <p className="text-white/80">
          Please reload the page. If it keeps happening, tell us on our community channels.
        </p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-full bg-gold-300 px-6 py-3 font-semibold text-royal-950"
        >
          Reload
        </button>
      </main>
    );
  }
}
