// The market refresh's own entry: the page's loader adds its script tag after the first paint when the
// server served live figures (site/scripts/build-steps.ts), so the page's hydration script carries nothing
// of the market (not even the decision to load it).
import { startMarketRefresh } from '../features/marketing/market-refresh';

startMarketRefresh();
