import { useEffect, useRef } from 'react';
import { afterPageLoad } from '../../../lib/after-page-load';

/**
 * FloatingParticles is the decorative layer of 80 drifting sparks (hidden from assistive tech). The sparks
 * and their code arrive once the page has loaded and is idle, so they cost the first paint, the page's script
 * and its hydration nothing.
 */
export function FloatingParticles() {
  const layer = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let stop: (() => void) | undefined;
    let unmounted = false;
    const cancelWait = afterPageLoad(() => {
      void import('./particles').then(({ startParticles }) => {
        if (!unmounted && layer.current) stop = startParticles(layer.current);
      });
    });
    return () => {
      unmounted = true;
      cancelWait();
      stop?.();
    };
  }, []);
  return <div ref={layer} aria-hidden="true" className="particle-layer" />;
}
