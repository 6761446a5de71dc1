// Favicons, app icons, the social card and the web manifest, composed as SVG and rasterised with sharp.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

/** BrandFacts are the coin facts the assets print. */
export interface BrandFacts {
  coinName: string;
  ticker: string;
  siteUrl: string;
}

type IconShape = 'rounded' | 'square';

interface IconOptions {
  size: number;
  shape: IconShape;
  /** Crown size relative to the 64-unit tile; maskable icons keep it inside the 80% safe circle. */
  crownScale: number;
}

const BACKGROUND = '#0b0614';
const THEME = '#1a0b2e';
const TAGLINE = 'Crowned on Solana, revered across every chain.';
const FONT = `font-family="'DejaVu Sans', Arial, sans-serif" font-weight="700"`;
const OG_WIDTH = 1200;
const OG_HEIGHT = 630;

const ICONS: readonly { file: string; options: IconOptions }[] = [
  { file: 'favicon-32.png', options: { size: 32, shape: 'rounded', crownScale: 1 } },
  { file: 'apple-touch-icon.png', options: { size: 180, shape: 'square', crownScale: 0.86 } },
  { file: 'icon-192.png', options: { size: 192, shape: 'rounded', crownScale: 0.92 } },
  { file: 'icon-512.png', options: { size: 512, shape: 'rounded', crownScale: 0.92 } },
  { file: 'icon-maskable-512.png', options: { size: 512, shape: 'square', crownScale: 0.72 } },
];

/** writeBrandAssets writes the favicon, app icons, Open Graph card and web manifest for brand into outDir. */
export async function writeBrandAssets(outDir: string, brand: BrandFacts): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await Promise.all([
    writeFile(join(outDir, 'favicon.svg'), faviconSvg()),
    ...ICONS.map(({ file, options }) => writePng(join(outDir, file), iconSvg(options))),
    writePng(join(outDir, 'og-image.png'), ogImageSvg(brand)),
    writeFile(join(outDir, 'manifest.webmanifest'), `${JSON.stringify(webManifest(brand), null, 2)}\n`),
  ]);
}

/** faviconSvg is the SVG favicon: served as /favicon.svg, and inlined into the built pages' icon link. */
export function faviconSvg(): string {
  return iconSvg({ size: 64, shape: 'rounded', crownScale: 1 });
}

/** webManifest describes the installable app for brand. */
export function webManifest(brand: BrandFacts): Record<string, unknown> {
  return {
    name: `QUEEN SOLANA ${brand.coinName}`,
    short_name: brand.coinName,
    description: `${brand.coinName} (${brand.ticker}): ${TAGLINE}`,
    start_url: '/',
    display: 'standalone',
    background_color: BACKGROUND,
    theme_color: THEME,
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

async function writePng(path: string, svg: string): Promise<void> {
  // Palette PNGs keep the gradients smooth enough (sharp dithers) at a fraction of the truecolour size.
  await sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true, quality: 95 }).toFile(path);
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** The gradients the crown and its backdrop paint with, shared by every asset. */
function sharedDefs(): string {
  return (
    '<linearGradient id="gold" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffe08a"/>' +
    '<stop offset=".55" stop-color="#f5c542"/><stop offset="1" stop-color="#d4a017"/></linearGradient>' +
    '<linearGradient id="sol" x1="0" y1="1" x2="1" y2="0"><stop offset="0" stop-color="#9945ff"/>' +
    '<stop offset="1" stop-color="#14f195"/></linearGradient>' +
    '<linearGradient id="tile" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2d1155"/>' +
    '<stop offset=".6" stop-color="#1a0b2e"/><stop offset="1" stop-color="#0b0614"/></linearGradient>' +
    '<radialGradient id="aura" cx="50%" cy="50%" r="50%"><stop offset="0" stop-color="#9945ff" stop-opacity=".55"/>' +
    '<stop offset="1" stop-color="#9945ff" stop-opacity="0"/></radialGradient>'
  );
}

/** A three-point crown drawn in a 64-unit box centred on (32, 32); thick shapes so it survives 16 px. */
function crown(): string {
  const orbs = [
    [10, 20],
    [32, 12],
    [54, 20],
  ]
    .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="3.6" fill="url(#gold)"/>`)
    .join('');
  return (
    '<path d="M13.5 45L10 22L22.5 33L32 14L41.5 33L54 22L50.5 45Z" fill="url(#gold)" stroke="#8a6209" ' +
    'stroke-width=".8" stroke-linejoin="round"/>' +
    '<rect x="12" y="43.5" width="40" height="8" rx="2" fill="url(#gold)" stroke="#8a6209" stroke-width=".8"/>' +
    orbs +
    '<path d="M32 29L36 35L32 41L28 35Z" fill="url(#sol)"/>' +
    '<circle cx="21" cy="47.5" r="2" fill="#9945ff"/><circle cx="43" cy="47.5" r="2" fill="#14f195"/>'
  );
}

function iconSvg({ size, shape, crownScale }: IconOptions): string {
  const radius = shape === 'rounded' ? 14 : 0;
  const offset = 32 - 32 * crownScale;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="${size}" height="${size}">` +
    `<defs>${sharedDefs()}</defs>` +
    `<rect width="64" height="64" rx="${radius}" fill="url(#tile)"/>` +
    '<circle cx="32" cy="34" r="26" fill="url(#aura)"/>' +
    (crownScale === 1
      ? crown()
      : `<g transform="translate(${offset} ${offset}) scale(${crownScale})">${crown()}</g>`) +
    '</svg>'
  );
}

function sparkle(x: number, y: number, size: number, color: string): string {
  const w = size * 0.22;
  return (
    `<path d="M${x} ${y - size}Q${x + w} ${y - w} ${x + size} ${y}Q${x + w} ${y + w} ${x} ${y + size}` +
    `Q${x - w} ${y + w} ${x - size} ${y}Q${x - w} ${y - w} ${x} ${y - size}Z" fill="${color}"/>`
  );
}

function solanaMark(cx: number, cy: number, width: number): string {
  const bar = width * 0.17;
  const gap = width * 0.11;
  const lean = width * 0.2;
  const left = cx - width / 2;
  const right = cx + width / 2;
  return [-1, 0, 1]
    .map((row) => {
      const top = cy + row * (bar + gap) - bar / 2;
      // The middle bar leans the other way, as in the Solana logo.
      return row === 0
        ? `<path d="M${left} ${top}H${right - lean}L${right} ${top + bar}H${left + lean}Z"/>`
        : `<path d="M${left + lean} ${top}H${right}L${right - lean} ${top + bar}H${left}Z"/>`;
    })
    .join('');
}

function ogBackground(): string {
  const sparkles = [
    [700, 90, 10, '#ffe08a'],
    [1130, 80, 8, '#ffffff'],
    [1150, 470, 12, '#14f195'],
    [690, 520, 8, '#c9a7ff'],
    [640, 300, 6, '#ffe08a'],
    [1080, 560, 7, '#ffe08a'],
  ] as const;
  return (
    `<rect width="${OG_WIDTH}" height="${OG_HEIGHT}" fill="url(#og-bg)"/>` +
    '<circle cx="905" cy="300" r="300" fill="url(#og-halo)"/>' +
    sparkles.map(([x, y, size, color]) => sparkle(x, y, size, color)).join('') +
    `<rect x="20" y="20" width="${OG_WIDTH - 40}" height="${OG_HEIGHT - 40}" rx="28" fill="none" ` +
    'stroke="#f5c542" stroke-opacity=".35" stroke-width="2"/>'
  );
}

function ogEmblem(): string {
  return (
    '<circle cx="905" cy="300" r="215" fill="#1a0b2e" fill-opacity=".55" stroke="url(#gold)" stroke-width="4"/>' +
    '<circle cx="905" cy="300" r="232" fill="none" stroke="#ffe08a" stroke-opacity=".3" stroke-width="2" stroke-dasharray="3 12"/>' +
    '<g transform="translate(905 255) scale(4.6) translate(-32 -32)">' +
    `<g filter="url(#og-glow)" opacity=".7">${crown()}</g>${crown()}</g>` +
    `<g fill="url(#sol)">${solanaMark(905, 442, 120)}</g>`
  );
}

function fittedFontSize(text: string, maxSize: number, maxWidth: number): number {
  // DejaVu Sans Bold capitals average about 0.72 em; shrink long coin names rather than clip them.
  return Math.floor(Math.min(maxSize, maxWidth / (Math.max(1, [...text].length) * 0.72)));
}

function ogText(brand: BrandFacts): string {
  const coinSize = fittedFontSize(brand.coinName, 68, 560);
  const host = brand.siteUrl.replace(/^https?:\/\//, '').replace(/\/$/, '');
  return (
    `<g ${FONT}>` +
    `<text x="80" y="190" font-size="112" fill="url(#og-gold-text)">QUEEN</text>` +
    `<text x="80" y="310" font-size="112" fill="url(#og-gold-text)">SOLANA</text>` +
    `<text x="82" y="${330 + coinSize}" font-size="${coinSize}" fill="url(#og-sol-text)">${escapeXml(brand.coinName)}</text>` +
    `<text x="82" y="488" font-size="26" font-weight="400" fill="#e4d6ff">${escapeXml(TAGLINE)}</text>` +
    `<text x="82" y="560" font-size="22" fill="#a58bd6" letter-spacing="1">${escapeXml(host)}</text>` +
    '</g>'
  );
}

function ogImageSvg(brand: BrandFacts): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${OG_WIDTH} ${OG_HEIGHT}" width="${OG_WIDTH}" height="${OG_HEIGHT}">` +
    `<defs>${sharedDefs()}` +
    '<radialGradient id="og-bg" cx="72%" cy="45%" r="85%"><stop offset="0" stop-color="#3a1670"/>' +
    '<stop offset=".5" stop-color="#1a0b2e"/><stop offset="1" stop-color="#0b0614"/></radialGradient>' +
    '<radialGradient id="og-halo"><stop offset="0" stop-color="#f5c542" stop-opacity=".45"/>' +
    '<stop offset=".5" stop-color="#9945ff" stop-opacity=".18"/><stop offset="1" stop-color="#9945ff" stop-opacity="0"/></radialGradient>' +
    '<linearGradient id="og-gold-text" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffe08a"/>' +
    '<stop offset="1" stop-color="#d4a017"/></linearGradient>' +
    '<linearGradient id="og-sol-text" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#b57bff"/>' +
    '<stop offset="1" stop-color="#14f195"/></linearGradient>' +
    '<filter id="og-glow" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="2.5"/></filter>' +
    '</defs>' +
    ogBackground() +
    ogEmblem() +
    ogText(brand) +
    '</svg>'
  );
}
