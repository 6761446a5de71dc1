import { useEffect, useRef } from 'react';

/**
 * FloatingParticles is the decorative layer of 80 drifting sparks (hidden from assistive tech). The sparks
 * and their code arrive after hydration, so they cost the first paint and the page's script nothing.
 */
export function FloatingParticles() {
  const layer = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let stop: (() => void) | undefined;
    let unmounted = false;
    void import('./particles').then(({ startParticles }) => {
      if (!unmounted && layer.current) stop = startParticles(layer.current);
    });
    return () => {
      unmounted = true;
      stop?.();
    };
  }, []);
  return <div ref={layer} aria-hidden="true" className="particle-layer" />;
}
