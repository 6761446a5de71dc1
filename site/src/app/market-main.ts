// The market refresh's own entry: the server adds its script tag to Home only when it serves live figures,
// so the page's hydration script carries nothing of the market (not even the decision to load it).
import { startMarketRefresh } from '../features/marketing/market-refresh';
import { BOOT_SCRIPT_ID, marketOfBootScript } from '../page-contract/page-contract';

const market = marketOfBootScript(document.getElementById(BOOT_SCRIPT_ID)?.textContent);
if (market) startMarketRefresh(market);
