import { HydrationSlice } from '../../lib/hydration-slices';
import { useHydratedMarker } from '../../lib/use-hydrated-marker';
import { FloatingParticles } from './components/floating-particles';
import { HeroSection } from './components/hero-section';
import { MotionToggle } from './components/motion-toggle';
import { SiteHeader } from './components/site-header';
import { StaticIsland } from './components/static-island';

/**
 * HomePage composes the single-page site, section by section. Static sections are kept as prerendered; the
 * live ones hydrate one slice per task.
 */
export function HomePage({ heroImageUrl }: { heroImageUrl: string | null }) {
  useHydratedMarker();
  return (
    <div className="relative min-h-screen overflow-x-clip bg-royal-950 text-white">
      <a
        href="#main"
        className="sr-only z-[60] rounded-full bg-gold-300 px-4 py-2 font-semibold text-royal-950 focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <div aria-hidden="true" className="royal-backdrop" />
      <FloatingParticles />

      <HydrationSlice name="header">
        <SiteHeader />
      </HydrationSlice>

      <main id="main" className="relative z-10">
        <HydrationSlice name="hero">
          <HeroSection heroImageUrl={heroImageUrl} />
        </HydrationSlice>

        <StaticIsland id="about" />

        <StaticIsland id="kingdom" />

        <StaticIsland id="buy" />

        <StaticIsland id="roadmap" />

        <StaticIsland id="community" />
      </main>
      <StaticIsland id="footer" className="relative z-10" />
      <HydrationSlice name="motion">
        <MotionToggle />
      </HydrationSlice>
    </div>
  );
}
