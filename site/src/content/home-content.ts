import type { SectionId } from '../config/paths';

// Everything Home says, as typed data; components only lay it out.

export const HERO_IMAGE_PROMPT =
  'A majestic queen character in purple and gold armor with the Solana logo, neon digital art style, crown, regal, glowing';

export const TAGLINE = 'Crowned on Solana, revered across every chain.';

export const NAV_ITEMS: { id: SectionId; label: string }[] = [
  { id: 'about', label: 'About' },
  { id: 'kingdom', label: 'Kingdom' },
  { id: 'buy', label: 'How to Buy' },
  { id: 'roadmap', label: 'Roadmap' },
  { id: 'community', label: 'Community' },
];

/** loreParagraphs tells the Queen's story; coin is the configured coin name. */
export function loreParagraphs(coin: string): string[] {
  return [
    `Before the first block was ever finalised, the chains were ruled by noise: a thousand tokens shouting over one another, none of them worth a bow. Then, in the blur of four hundred milliseconds, a crown appeared on Solana — forged from validator light and minted by the people. The Queen had arrived, and she did not ask for a throne. She took one.`,
    `${coin} is her seal. It carries no promises from a council of insiders and no vault of hidden allocations — only the loyalty of a court that grows one holder at a time. Every swap is a vow, every meme a banner raised over the kingdom walls, and every raid a procession through the timelines of lesser realms.`,
    `The Queen reigns from Solana, but her gaze sweeps across every chain. Where others build walls, she builds bridges; where others chase the moon alone, she marches with her people. Kneel if you like — but the Queen prefers you stand beside her.`,
  ];
}

export type KingdomIcon = 'bolt' | 'people' | 'scroll' | 'link' | 'coin' | 'flame';

export const KINGDOM_CARDS: { icon: KingdomIcon; title: string; text: string }[] = [
  {
    icon: 'bolt',
    title: 'Lightning Speed',
    text: 'Born on Solana, the Queen settles in well under a second. No waiting at the gates — your crown arrives before your courage fades.',
  },
  {
    icon: 'people',
    title: 'Community Ruled',
    text: 'No hidden council pulls the strings. The court decides the memes, the raids and the banners — the Queen simply leads the charge.',
  },
  {
    icon: 'scroll',
    title: 'NFT Lore',
    text: 'Knights, jesters and rival monarchs: a growing saga told in art, with a collection that lets holders own a page of the chronicle.',
  },
  {
    icon: 'link',
    title: 'Cross-Chain Unity',
    text: 'Crowned on Solana, revered everywhere. Bridges are on the royal path so every chain can pay its respects.',
  },
  {
    icon: 'coin',
    title: 'Tiny Fees',
    text: 'Fractions of a cent per transaction. The Queen taxes no one — keep your SOL for the celebrations.',
  },
  {
    icon: 'flame',
    title: 'Relentless Culture',
    text: 'Memes at dawn, raids at dusk, and a court that never sleeps. The culture is the kingdom, and the kingdom does not bow.',
  },
];

/** buySteps lists the four steps of "Claim Your Crown"; coin is the configured coin name. */
export function buySteps(coin: string): { number: string; title: string; text: string }[] {
  return [
    {
      number: '01',
      title: 'Get a Wallet',
      text: 'Install Phantom, Solflare or any Solana wallet from its official site, and keep your recovery phrase offline and secret.',
    },
    {
      number: '02',
      title: 'Load SOL',
      text: 'Buy SOL on an exchange and withdraw it to your wallet address. Keep a little extra for network fees.',
    },
    {
      number: '03',
      title: `Swap for ${coin}`,
      text: `Open Raydium, Jupiter or another DEX, paste the contract address above, check it character by character, and swap SOL for ${coin}.`,
    },
    {
      number: '04',
      title: 'Join the Kingdom',
      text: 'Follow the court on X and Telegram, share the memes and take your place in the Queen’s army.',
    },
  ];
}

export interface RoadmapPhase {
  phase: number;
  title: string;
  status: 'active' | 'upcoming';
  items: string[];
}

/** roadmapPhases is "The Royal Path", fixed copy kept word for word; coin fills Phase 4's ecosystem item. */
export function roadmapPhases(coin: string): RoadmapPhase[] {
  return [
    {
      phase: 1,
      title: 'The Coronation',
      status: 'active',
      items: [
        'Token launch on Solana',
        'Community building and social raids',
        'Website and branding launch',
        'Initial DEX listings',
      ],
    },
    {
      phase: 2,
      title: 'Building the Kingdom',
      status: 'active',
      items: [
        'CMC and CoinGecko listings',
        '5,000+ holders milestone',
        'Strategic partnerships',
        'Community bounties launch',
      ],
    },
    {
      phase: 3,
      title: 'Royal Expansion',
      status: 'upcoming',
      items: ['CEX listings', 'NFT collection launch', '10,000+ holders', 'Cross-chain bridges'],
    },
    {
      phase: 4,
      title: 'The Empire',
      status: 'upcoming',
      items: ['Global marketing campaign', `${coin} ecosystem`, 'Major exchange listings', 'To The Moon'],
    },
  ];
}

export const DISCLAIMER =
  'is a meme coin with no intrinsic value or expectation of financial return. There is no formal team or roadmap obligation; the token is for entertainment purposes only. Nothing on this site is financial advice. Always verify the contract address and never share your recovery phrase.';
