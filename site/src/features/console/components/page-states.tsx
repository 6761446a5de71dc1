import { useEffect, useRef, type ReactNode } from 'react';

/** PageHeading is a page's one h1, focused when the page opens so keyboard and reader users land on it. */
export function PageHeading({ children }: { children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold text-gold-100 outline-none">
      {children}
    </h1>
  );
}

/** LoadingState says a page is waiting for the server. */
export function LoadingState({ what }: { what: string }) {
  return (
    <p role="status" className="mt-6 text-gray-300">
      Loading {what}…
    </p>
  );
}

/** ErrorState shows why a page could not load, with a retry. */
export function ErrorState({ error, retry }: { error: unknown; retry: () => void }) {
  const message = error instanceof Error ? error.message : 'Something went wrong';
  return (
    <div role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-950/60 p-4 text-red-100">
      <p>Could not load this page: {message}</p>
      <button type="button" onClick={retry} className="mt-3 rounded bg-red-200 px-3 py-1 text-red-950">
        Try again
      </button>
    </div>
  );
}

/** EmptyState says there is nothing to show yet. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="mt-4 text-gray-300">{children}</p>;
}
