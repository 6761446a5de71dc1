import { useEffect, useState } from 'react';
import { HERO_IMAGE_PROMPT } from '../../../content/home-content';
import { getPlatformClient } from '../../../lib/platform-client';

export type HeroImageState =
  { status: 'generating' } | { status: 'ready'; url: string } | { status: 'empty' };

const HERO_ALT = 'The Queen of Solana: a crowned queen in purple and gold armour bearing the Solana mark';

/** HeroImageView renders one hero image state; the build prerenders each so the server can swap them. */
export function HeroImageView({ state }: { state: HeroImageState }) {
  return (
    <div className="hero-art relative aspect-square w-full" data-hero-state={state.status}>
      {state.status === 'ready' && (
        <img
          src={state.url}
          alt={HERO_ALT}
          width={960}
          height={960}
          fetchPriority="high"
          className="h-full w-full rounded-[2rem] object-cover"
        />
      )}
      {state.status === 'generating' && (
        <div role="status" className="grid h-full w-full place-items-center rounded-[2rem] bg-royal-900/70">
          <span className="h-14 w-14 animate-spin rounded-full border-4 border-gold-300/25 border-t-gold-300" />
          <span className="sr-only">Summoning the Queen…</span>
        </div>
      )}
      {state.status === 'empty' && (
        <div className="grid h-full w-full place-items-center rounded-[2rem] bg-royal-900/70">
          <p className="font-display text-xl text-gold-200">Loading Queen...</p>
        </div>
      )}
    </div>
  );
}

/** HeroImage asks the platform to generate the Queen once (the server caches it) and shows the result. */
export function HeroImage({ initialUrl }: { initialUrl: string | null }) {
  const [state, setState] = useState<HeroImageState>(
    initialUrl ? { status: 'ready', url: initialUrl } : { status: 'generating' },
  );

  useEffect(() => {
    if (initialUrl) return;
    let cancelled = false;
    (async () => {
      try {
        const client = await getPlatformClient();
        const result = await client.integrations.Core.GenerateImage({ prompt: HERO_IMAGE_PROMPT });
        if (!cancelled) setState(result?.url ? { status: 'ready', url: result.url } : { status: 'empty' });
      } catch (error) {
        console.error('Error generating hero image:', error);
        if (!cancelled) setState({ status: 'empty' });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [initialUrl]);

  return <HeroImageView state={state} />;
}
