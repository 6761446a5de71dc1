import { toast } from '../../../components/ui/toast';

/**
 * listenForComingSoon makes every "coming soon" button (`data-coming-soon`, rendered by ExternalAction in
 * React's tree or kept in a static island's HTML) say so when pressed: one listener for the whole page.
 * It answers the listener's removal.
 */
export function listenForComingSoon(root: Document | HTMLElement = document): () => void {
  const onClick = (event: Event) => {
    const button =
      event.target instanceof Element ? event.target.closest<HTMLElement>('[data-coming-soon]') : null;
    const label = button?.dataset.comingSoon;
    if (label) toast({ title: `${label} is coming soon`, description: 'Follow us on X to hear first.' });
  };
  root.addEventListener('click', onClick);
  return () => root.removeEventListener('click', onClick);
}
