import { useEffect, useRef } from 'react';
import { startParticles } from './particles';

/**
 * FloatingParticles is the decorative layer of 80 drifting sparks (hidden from assistive tech). The sparks
 * are added after hydration, so they cost the first paint nothing.
 */
export function FloatingParticles() {
  const layer = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!layer.current) return;
    return startParticles(layer.current);
  }, []);
  return <div ref={layer} aria-hidden="true" className="particle-layer" />;
}
