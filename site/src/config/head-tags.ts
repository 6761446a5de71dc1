import type { SiteConfig } from './site-config-schema';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// Theme colour, icons and manifest: the same on every page.
const brandTags = [
  `<meta name="theme-color" content="#1a0b2e" />`,
  `<link rel="icon" href="/favicon.svg" type="image/svg+xml" />`,
  `<link rel="icon" href="/favicon-32.png" type="image/png" sizes="32x32" />`,
  `<link rel="apple-touch-icon" href="/apple-touch-icon.png" />`,
  `<link rel="manifest" href="/manifest.webmanifest" />`,
];

/** headTags renders title, description, canonical, Open Graph, Twitter card and icon tags from the config. */
export function headTags(config: SiteConfig): string {
  const title = `QUEEN SOLANA (${config.coinName}) · Crowned on Solana`;
  const description = `${config.coinName} is the Queen of Solana: a community meme coin crowned on Solana, revered across every chain. Lore, how to buy, roadmap and the official contract address.`;
  const url = `${config.siteUrl}/`;
  const image = `${config.siteUrl}/og-image.png`;
  const handle = new URL(config.xUrl).pathname.split('/').filter(Boolean)[0];
  const meta = (attribute: 'name' | 'property', key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeAttribute(content)}" />`;
  return [
    `<title>${escapeAttribute(title)}</title>`,
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeAttribute(url)}" />`,
    ...brandTags,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', 'QUEEN SOLANA'),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    meta('property', 'og:image', image),
    meta('property', 'og:image:width', '1200'),
    meta('property', 'og:image:height', '630'),
    meta(
      'property',
      'og:image:alt',
      `QUEEN SOLANA ${config.coinName}: a crowned queen in purple and gold armour`,
    ),
    meta('name', 'twitter:card', 'summary_large_image'),
    ...(handle ? [meta('name', 'twitter:site', `@${handle}`)] : []),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', image),
  ].join('\n    ');
}

/** loginHeadTags renders the sign-in page's head: its title, noindex, and the site's icons. */
export function loginHeadTags(): string {
  return [
    '<title>Sign in · QUEEN SOLANA</title>',
    '<meta name="robots" content="noindex" />',
    '<meta name="description" content="Sign in to QUEEN SOLANA." />',
    ...brandTags,
  ].join('\n    ');
}
