import type { ComponentType } from 'react';
import { AboutSection } from './components/about-section';
import { BuySection } from './components/buy-section';
import { CommunitySection } from './components/community-section';
import { MarketView } from './components/market-view';
import { KingdomSection } from './components/kingdom-section';
import { RoadmapSection } from './components/roadmap-section';
import { SiteFooter } from './components/site-footer';

export type StaticSectionId =
  'about' | 'kingdom' | 'buy' | 'roadmap' | 'community' | 'footer' | 'market-tile';

/**
 * STATIC_SECTIONS are the Home sections with no interactivity. They exist only where pages are rendered
 * (the build's prerender, the dev server, tests); the production browser bundle keeps their prerendered
 * HTML instead, so their code and texts are not shipped twice. Their "coming soon" buttons speak through
 * one listener on the document (coming-soon.ts), not through React. The market views are rendered as the
 * pre-launch text: the server fills in the figures, and market-refresh.ts keeps them current.
 */
export const STATIC_SECTIONS: Record<StaticSectionId, ComponentType> | null =
  import.meta.env.SSR || import.meta.env.DEV
    ? {
        about: AboutSection,
        kingdom: KingdomSection,
        buy: BuySection,
        'market-tile': () => <MarketView figures={null} variant="tile" />,
        roadmap: RoadmapSection,
        community: CommunitySection,
        footer: SiteFooter,
      }
    : null;
