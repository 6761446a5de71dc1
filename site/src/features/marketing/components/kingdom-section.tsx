import type { ComponentType, SVGProps } from 'react';
import {
  BoltIcon,
  CoinIcon,
  FlameIcon,
  LinkIcon,
  PeopleIcon,
  ScrollIcon,
} from '../../../components/ui/icons';
import { SECTION_IDS } from '../../../config/paths';
import { KINGDOM_CARDS, type KingdomIcon } from '../../../content/home-content';
import { HomeSection } from './home-section';

const ICONS: Record<KingdomIcon, ComponentType<SVGProps<SVGSVGElement>>> = {
  bolt: BoltIcon,
  people: PeopleIcon,
  scroll: ScrollIcon,
  link: LinkIcon,
  coin: CoinIcon,
  flame: FlameIcon,
};

/** KingdomSection lists the six powers of the kingdom: "The Kingdom's Power". */
export function KingdomSection() {
  return (
    <HomeSection
      id={SECTION_IDS.kingdom}
      eyebrow="Kingdom"
      title="The Kingdom's Power"
      intro="Six reasons the court keeps growing."
    >
      <ul className="mx-auto grid max-w-6xl gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {KINGDOM_CARDS.map((card) => {
          const Icon = ICONS[card.icon];
          return (
            <li
              key={card.title}
              className="group rounded-3xl border border-white/10 bg-gradient-to-b from-royal-800/80 to-royal-900/80 p-6 transition-colors hover:border-gold-300/50"
            >
              <span className="mb-5 grid h-12 w-12 place-items-center rounded-2xl bg-gradient-to-br from-sol-purple to-sol-green text-royal-950">
                <Icon className="h-6 w-6" />
              </span>
              <h3 className="mb-2 text-xl font-bold text-gold-100">{card.title}</h3>
              <p className="leading-relaxed text-white/80">{card.text}</p>
            </li>
          );
        })}
      </ul>
    </HomeSection>
  );
}
