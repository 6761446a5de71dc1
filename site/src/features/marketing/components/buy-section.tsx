import { SECTION_IDS } from '../../../config/paths';
import { HomeSection } from './home-section';
import { MarketFigures } from './market-figures';
import { StaticIsland } from './static-island';

/** BuySection explains how to buy in four steps, "Claim Your Crown", above the coin's live market strip. */
export function BuySection() {
  return (
    <HomeSection
      id={SECTION_IDS.buy}
      eyebrow="How to Buy"
      title="Claim Your Crown"
      intro="Four steps from stranger to royalty. No wallet connection needed on this site."
    >
      <StaticIsland id="buy" />
      <MarketFigures variant="strip" />
    </HomeSection>
  );
}
