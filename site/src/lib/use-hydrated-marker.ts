import { useEffect } from 'react';

/**
 * useHydratedMarker flags `<html data-hydrated="true">` once a screen is live, so tests and styles can
 * tell the prerendered HTML from the interactive page.
 */
export function useHydratedMarker(): void {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
}
