import { useEffect } from 'react';
import { postUrlChanged, watchLocation } from '../../lib/embedding';

/** useNavigationReporter posts `app_changed_url` to an embedding parent on load and every URL change. */
export function useNavigationReporter() {
  useEffect(() => watchLocation(postUrlChanged), []);
}
