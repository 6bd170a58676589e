// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import buildManifests from './builds/integration.ts';

// Static output: every page is prerendered; dynamic routes are one shell each (see src/shared/routes.ts).
export default defineConfig({
  output: 'static',
  outDir: process.env.DIST_DIR ?? './dist',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  integrations: [react(), buildManifests()],
  devToolbar: { enabled: false },
  prefetch: false,
  vite: {
    plugins: [tailwindcss()],
    server: {
      // `npm run dev`: the API runs in its own process (`npm start`) and is proxied here.
      proxy: { '/api': process.env.API_ORIGIN ?? 'http://127.0.0.1:4321' },
    },
  },
});
