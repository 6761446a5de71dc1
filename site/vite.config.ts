import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { headTags, loginHeadTags } from './src/config/head-tags';
import { loadSiteConfig } from './src/config/site-config-schema';
import { HEAD_MARKER } from './src/page-contract/page-contract';

// The site config is validated here, so an invalid one fails the build with a message naming the field.
const siteConfig = loadSiteConfig(resolve(import.meta.dirname, '../site.config.json'));

/**
 * SITE_PAGES are the HTML entries: Home (with the 404 page prerendered from it) and the sign-in page.
 * `npm run build` builds each page on its own (scripts/build.ts), so pages never share a chunk and the
 * sign-in page cannot change what Home downloads; `vite build` and `vite` serve both at once.
 */
export const SITE_PAGES = {
  index: resolve(import.meta.dirname, 'index.html'),
  login: resolve(import.meta.dirname, 'login.html'),
};

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    react(),
    tailwindcss(),
    {
      name: 'site-head-tags',
      transformIndexHtml: (html, context) =>
        html.replace(
          HEAD_MARKER,
          context.filename === SITE_PAGES.login ? loginHeadTags() : headTags(siteConfig),
        ),
    },
  ],
  define: { __SITE_CONFIG__: JSON.stringify(siteConfig) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    rolldownOptions: { input: SITE_PAGES },
    // Every browser the page targets supports modulepreload natively.
    modulePreload: { polyfill: false },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/media': 'http://127.0.0.1:8080' } },
});
