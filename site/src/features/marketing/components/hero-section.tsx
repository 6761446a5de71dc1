import { ArrowIcon, CrownIcon } from '../../../components/ui/icons';
import { siteConfig } from '../../../config/site';
import { TAGLINE } from '../../../content/home-content';
import { ContractAddress } from './contract-address';
import { HeroImage } from './hero-image';
import { StaticIsland } from './static-island';

/** HeroSection is the first screen: badge, title, tagline, calls to action, contract address and the Queen. */
export function HeroSection({ heroImageUrl }: { heroImageUrl: string | null }) {
  const coin = siteConfig.coinName;
  return (
    <section aria-labelledby="hero-title" className="relative overflow-hidden">
      <div className="mx-auto grid max-w-7xl grid-cols-1 items-center gap-12 px-4 pt-12 pb-20 sm:px-6 lg:grid-cols-[1.1fr_0.9fr] lg:pt-20 lg:pb-28">
        <div className="flex min-w-0 flex-col items-center text-center lg:items-start lg:text-left">
          <p className="pulse-glow mb-6 inline-flex items-center gap-2 rounded-full border border-gold-300/50 bg-gold-300/10 px-4 py-1.5 text-xs font-bold tracking-[0.3em] text-gold-200">
            <CrownIcon className="h-4 w-4" />
            QUEEN OF QUEENS
          </p>
          <h1 id="hero-title" className="font-display leading-[0.95] font-black tracking-tight">
            <span className="text-gold-gradient block text-5xl sm:text-7xl xl:text-8xl">QUEEN SOLANA</span>
            <span className="text-sol-gradient mt-3 block text-4xl sm:text-6xl">{coin}</span>
          </h1>
          <p className="mt-6 max-w-xl text-lg text-white/85 sm:text-xl">{TAGLINE}</p>
          <div className="mt-8 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
            <a
              href={siteConfig.launchpadUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex min-h-12 items-center justify-center gap-2 rounded-full bg-gradient-to-r from-gold-200 via-gold-300 to-gold-400 px-8 text-base font-bold text-royal-950 shadow-[0_0_30px_-6px_rgba(245,197,66,0.8)] transition-transform hover:scale-[1.03]"
            >
              Buy {coin}
              <ArrowIcon className="h-4 w-4" />
            </a>
            <a
              href="#kingdom"
              className="inline-flex min-h-12 items-center justify-center rounded-full border border-sol-purple/70 bg-royal-900/60 px-8 text-base font-semibold text-white transition-colors hover:border-sol-green/80 hover:bg-royal-800"
            >
              Enter the Kingdom
            </a>
          </div>
          <div className="mt-8 flex w-full flex-col items-center gap-3 lg:items-start">
            <ContractAddress address={siteConfig.contractAddress} />
            <StaticIsland id="market-tile" className="w-full max-w-xl" />
          </div>
        </div>
        <div className="relative mx-auto w-full max-w-[26rem] lg:max-w-[30rem]">
          <div aria-hidden="true" className="halo-ring absolute -inset-6 rounded-full" />
          <div aria-hidden="true" className="glow-soft absolute -inset-2 rounded-[2.5rem]" />
          <div className="float-gentle relative rounded-[2.25rem] border border-gold-300/40 bg-royal-900/60 p-2 shadow-2xl">
            <HeroImage initialUrl={heroImageUrl} />
          </div>
        </div>
      </div>
    </section>
  );
}
