import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { headTags } from './src/config/head-tags';
import { loadSiteConfig } from './src/config/site-config-schema';

// The site config is validated here, so an invalid one fails the build with a message naming the field.
const siteConfig = loadSiteConfig(resolve(import.meta.dirname, '../site.config.json'));

export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    react(),
    tailwindcss(),
    {
      name: 'site-head-tags',
      transformIndexHtml: (html) => html.replace('<!--app-head-->', headTags(siteConfig)),
    },
  ],
  define: { __SITE_CONFIG__: JSON.stringify(siteConfig) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    // Every browser the page targets supports modulepreload natively.
    modulePreload: { polyfill: false },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/media': 'http://127.0.0.1:8080' } },
});
