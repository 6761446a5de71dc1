import { useMarketFigures } from '../api/use-market';
import { MarketView, type MarketVariant } from './market-view';

/** MarketFigures is the live market view: the server's figures first, refreshed while the page is visible. */
export function MarketFigures({ variant }: { variant: MarketVariant }) {
  return <MarketView figures={useMarketFigures()} variant={variant} />;
}
