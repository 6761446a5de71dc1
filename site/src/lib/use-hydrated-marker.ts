import { useEffect } from 'react';
import { slicesHydrated } from './hydration-slices';

/**
 * useHydratedMarker flags `<html data-hydrated="true">` once a screen is live (its hydration slices
 * included), so tests and styles can tell the prerendered HTML from the interactive page.
 */
export function useHydratedMarker(): void {
  useEffect(() => {
    void slicesHydrated().then(() => {
      document.documentElement.dataset.hydrated = 'true';
    });
  }, []);
}
