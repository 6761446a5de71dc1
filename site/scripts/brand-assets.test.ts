// @vitest-environment node
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBrandAssets } from './brand-assets';

const BRAND = { coinName: '$QUEEN', ticker: 'QUEEN', siteUrl: 'https://queensolana.example' };

const PNG_SIZES: readonly [file: string, width: number, height: number][] = [
  ['favicon-32.png', 32, 32],
  ['apple-touch-icon.png', 180, 180],
  ['icon-192.png', 192, 192],
  ['icon-512.png', 512, 512],
  ['icon-maskable-512.png', 512, 512],
  ['og-image.png', 1200, 630],
];

describe('writeBrandAssets', () => {
  let outDir = '';

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'brand-assets-'));
    await writeBrandAssets(join(outDir, 'nested'), BRAND);
  }, 30_000);

  afterAll(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  it.each(PNG_SIZES)('writes %s at %ix%i', async (file, width, height) => {
    const meta = await sharp(join(outDir, 'nested', file)).metadata();
    expect(meta.format).toBe('png');
    expect([meta.width, meta.height]).toEqual([width, height]);
  });

  it('gives the icons that platforms mask an opaque, full-bleed background', async () => {
    for (const file of ['apple-touch-icon.png', 'icon-maskable-512.png']) {
      const { data, info } = await sharp(join(outDir, 'nested', file))
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const cornerAlpha = data[info.channels - 1];
      expect(cornerAlpha, file).toBe(255);
    }
  });

  it('keeps the social card small enough for link unfurlers', async () => {
    expect((await stat(join(outDir, 'nested', 'og-image.png'))).size).toBeLessThan(300 * 1024);
  });

  it('writes an SVG favicon that sharp can rasterise', async () => {
    const svg = await readFile(join(outDir, 'nested', 'favicon.svg'), 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 64 64"/);
    const meta = await sharp(Buffer.from(svg)).resize(16, 16).png().toBuffer();
    expect(meta.length).toBeGreaterThan(0);
  });

  it('writes a manifest naming the coin', async () => {
    const manifest = JSON.parse(await readFile(join(outDir, 'nested', 'manifest.webmanifest'), 'utf8'));
    expect(manifest).toMatchObject({
      name: 'QUEEN SOLANA $QUEEN',
      short_name: '$QUEEN',
      start_url: '/',
      display: 'standalone',
      background_color: '#0b0614',
      theme_color: '#1a0b2e',
    });
    expect(manifest.icons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ src: '/icon-192.png', sizes: '192x192' }),
        expect.objectContaining({ src: '/icon-512.png', sizes: '512x512' }),
        expect.objectContaining({ src: '/icon-maskable-512.png', sizes: '512x512', purpose: 'maskable' }),
      ]),
    );
  });

  it('survives a coin name full of markup', async () => {
    const hostileDir = join(outDir, 'hostile');
    await writeBrandAssets(hostileDir, { ...BRAND, coinName: '</text><script>"&\'</script>' });
    const meta = await sharp(join(hostileDir, 'og-image.png')).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 630]);
    const manifest = JSON.parse(await readFile(join(hostileDir, 'manifest.webmanifest'), 'utf8'));
    expect(manifest.short_name).toBe('</text><script>"&\'</script>');
  }, 30_000);
});
