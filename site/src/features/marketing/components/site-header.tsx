import { useEffect, useState } from 'react';
import {
  ChartIcon,
  CloseIcon,
  CrownIcon,
  MenuIcon,
  TelegramIcon,
  XLogoIcon,
} from '../../../components/ui/icons';
import { siteConfig } from '../../../config/site';
import { NAV_ITEMS } from '../../../content/home-content';
import { ExternalAction } from './external-action';

const iconButton =
  'relative grid h-11 w-11 place-items-center rounded-full border border-white/15 text-white/90 transition-colors hover:border-gold-300/70 hover:text-gold-200';

/** ChannelIconLinks are the Telegram and chart icon buttons (link, or disabled "coming soon"). */
function ChannelIconLinks({ className }: { className: string }) {
  return (
    <>
      <ExternalAction href={siteConfig.telegramUrl} label="Telegram" className={className}>
        <TelegramIcon className="h-5 w-5" />
      </ExternalAction>
      <ExternalAction href={siteConfig.dexscreenerUrl} label="Chart" className={className}>
        <ChartIcon className="h-5 w-5" />
      </ExternalAction>
    </>
  );
}

/** SiteHeader is the sticky bar: logo (back to top), section links, social icons and a mobile menu. */
export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setMenuOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <header className="sticky top-0 z-50 border-b border-white/10 bg-royal-950/85 backdrop-blur-md">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6">
        <a
          href="#top"
          className="flex items-center gap-2 rounded-lg"
          aria-label={`${siteConfig.coinName}: back to top`}
        >
          <CrownIcon className="h-8 w-8 text-gold-300 drop-shadow-[0_0_8px_rgba(245,197,66,0.6)]" />
          <span className="font-display text-lg font-bold tracking-wide text-gold-200">
            {siteConfig.coinName}
          </span>
        </a>
        <nav aria-label="Sections" className="ml-auto hidden lg:block">
          <ul className="flex items-center gap-1">
            {NAV_ITEMS.map((item) => (
              <li key={item.id}>
                <a
                  href={`#${item.id}`}
                  className="rounded-full px-3 py-2 text-sm font-medium text-white/85 transition-colors hover:bg-white/5 hover:text-gold-200"
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto flex items-center gap-2 lg:ml-4">
          <a
            href={siteConfig.xUrl}
            target="_blank"
            rel="noopener noreferrer"
            aria-label="X (Twitter) profile"
            className={iconButton}
          >
            <XLogoIcon className="h-4 w-4" />
          </a>
          <ChannelIconLinks className={`${iconButton} hidden sm:grid`} />
          <button
            type="button"
            className={`${iconButton} lg:hidden`}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <CloseIcon className="h-5 w-5" /> : <MenuIcon className="h-5 w-5" />}
          </button>
        </div>
      </div>
      <nav
        id="mobile-menu"
        aria-label="Sections (menu)"
        hidden={!menuOpen}
        className="border-t border-white/10 bg-royal-950/95 px-4 pb-4 lg:hidden"
      >
        <ul className="grid gap-1 pt-2">
          {NAV_ITEMS.map((item) => (
            <li key={item.id}>
              <a
                href={`#${item.id}`}
                onClick={() => setMenuOpen(false)}
                className="block rounded-lg px-3 py-3 text-base font-medium text-white/90 hover:bg-white/5 hover:text-gold-200"
              >
                {item.label}
              </a>
            </li>
          ))}
        </ul>
        <div className="mt-3 flex gap-2 sm:hidden">
          <ChannelIconLinks className={iconButton} />
        </div>
      </nav>
    </header>
  );
}
