import { QueryClientProvider } from '@tanstack/react-query';
import { PageNotFound } from '../../features/shell/page-not-found';
import { queryClient } from '../../lib/query-client';

/** NotFoundRoute is loaded only for unknown paths, together with the query client it needs. */
export default function NotFoundRoute({ pathname }: { pathname: string }) {
  return (
    <QueryClientProvider client={queryClient}>
      <PageNotFound pathname={pathname} />
    </QueryClientProvider>
  );
}
