import { QueryClient } from '@tanstack/react-query';

/** queryClient carries the template's defaults: no refetch on window focus, one retry. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});
