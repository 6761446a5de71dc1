import { useHydratedMarker } from '../../lib/use-hydrated-marker';
import { AboutSection } from './components/about-section';
import { BuySection } from './components/buy-section';
import { CommunitySection } from './components/community-section';
import { FloatingParticles } from './components/floating-particles';
import { HeroSection } from './components/hero-section';
import { KingdomSection } from './components/kingdom-section';
import { MotionToggle } from './components/motion-toggle';
import { RoadmapSection } from './components/roadmap-section';
import { SiteFooter } from './components/site-footer';
import { SiteHeader } from './components/site-header';

/** HomePage composes the single-page site, section by section. */
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

      <SiteHeader />

      <main id="main" className="relative z-10">
        <HeroSection heroImageUrl={heroImageUrl} />

        <AboutSection />

        <KingdomSection />

        <BuySection />

        <RoadmapSection />

        <CommunitySection />
      </main>
      <div className="relative z-10">
        <SiteFooter />
      </div>
      <MotionToggle />
    </div>
  );
}
