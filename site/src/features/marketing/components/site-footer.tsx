import { CrownIcon } from '../../../components/ui/icons';
import { siteConfig } from '../../../config/site';
import { DISCLAIMER } from '../../../content/home-content';

/** SiteFooter carries the disclaimer: a meme coin, no value promised, for entertainment only. */
export function SiteFooter() {
  return (
    <footer className="border-t border-white/10 bg-royal-950 px-4 py-12 sm:px-6">
      <div className="mx-auto max-w-4xl text-center">
        <p className="flex items-center justify-center gap-2 font-display text-xl font-bold text-gold-200">
          <CrownIcon className="h-6 w-6 text-gold-300" />
          QUEEN SOLANA · {siteConfig.coinName}
        </p>
        <p className="mt-6 text-sm leading-relaxed text-white/75">
          <strong className="text-white/90">Disclaimer:</strong> {siteConfig.coinName} {DISCLAIMER}
        </p>
        <p className="mt-6 text-xs text-white/70">
          © QUEEN SOLANA. Crowned on Solana, revered across every chain.
        </p>
      </div>
    </footer>
  );
}
