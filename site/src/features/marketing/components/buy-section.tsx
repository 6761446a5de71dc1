import { siteConfig } from '../../../config/site';
import { SECTION_IDS } from '../../../config/paths';
import { buySteps } from '../../../content/home-content';
import { HomeSection } from './home-section';
import { MarketView } from './market-view';

/** BuySection explains how to buy in four steps, "Claim Your Crown", above the market strip. */
export function BuySection() {
  return (
    <HomeSection
      id={SECTION_IDS.buy}
      eyebrow="How to Buy"
      title="Claim Your Crown"
      intro="Four steps from stranger to royalty. No wallet connection needed on this site."
    >
      <ol className="mx-auto grid max-w-6xl gap-5 md:grid-cols-2 lg:grid-cols-4">
        {buySteps(siteConfig.coinName).map((step) => (
          <li key={step.number} className="relative rounded-3xl border border-white/10 bg-royal-900/70 p-6">
            <span aria-hidden="true" className="font-display text-sol-gradient block text-5xl font-black">
              {step.number}
            </span>
            <h3 className="mt-3 mb-2 text-xl font-bold text-gold-100">
              <span className="sr-only">Step {step.number}: </span>
              {step.title}
            </h3>
            <p className="leading-relaxed text-white/80">{step.text}</p>
          </li>
        ))}
      </ol>
      <MarketView figures={null} variant="strip" />
    </HomeSection>
  );
}
