// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import clientDirectives from './builds/directives.ts';
import buildManifests from './builds/integration.ts';

// Static output: every page is prerendered; dynamic routes are one shell each (see src/shared/routes.ts).
export default defineConfig({
  output: 'static',
  outDir: process.env.DIST_DIR ?? './dist',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  integrations: [
    react(),
    clientDirectives(),
    buildManifests({
      // Route rules (docs/product.md §2: a server-provided redirect for a path), applied by the Node server and the browser's guard.
      routeRules: {
        // docs/product.md: no screen of its own; the participant's missions are listed on /account.
        '/account/mission-history': { redirect: { to: '/account#mission-history', statusCode: 302 } },
      },
    }),
  ],
  devToolbar: { enabled: false },
  prefetch: false,
  vite: {
    plugins: [tailwindcss()],
    build: {
      // Every page loads React and the shell's small modules (platform, stores, route rules): one
      // chunk each instead of ~20 tiny ones saves ~3.5 KB gzip on every page's first visit
      // (`npm run page-js`; the survey screen's budget is 150 KB). Add only modules every page loads
      // (`platform/upload.ts` is the admin tools' alone: it stays with them).
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|rolldown[\\/]runtime/ },
              {
                name: 'shell',
                test: /src[\\/]platform[\\/](?!upload\.ts)|src[\\/]stores[\\/]|src[\\/]shared[\\/](route-rules|routes|roles|ui-constants)\.ts|src[\\/]lib[\\/](form-errors|navigation|navigation-target|use-client-store|use-auth|user|lazy-module|session)\.ts|node_modules[\\/]nanostores[\\/]|node_modules[\\/]astro[\\/]dist[\\/]transitions[\\/]|vite[\\/]preload-helper/,
              },
              // The UI kit's parts nearly every island draws (buttons, fields, alerts, icons) and
              // Radix's small shared internals: one chunk instead of ~15 of under 1 KB, each of
              // which costs a request and its ~0.7 KB of headers (issue 19, "page weight").
              {
                name: 'ui',
                test: /src[\\/]components[\\/](ui[\\/](alert|avatar|badge|button|card|form-field|input|label|password-input|skeleton|spinner)\.tsx|icons\.tsx|FormAlert\.tsx)|src[\\/]lib[\\/]utils\.ts|node_modules[\\/](clsx|tailwind-merge|class-variance-authority)[\\/]|node_modules[\\/]@radix-ui[\\/](primitive|react-(slot|compose-refs|primitive|context|use-layout-effect|use-controllable-state|use-callback-ref|id|label|use-effect-event|use-is-hydrated|avatar))[\\/]/,
              },
            ],
          },
        },
      },
    },
    server: {
      // `npm run dev`: the API runs in its own process (`npm start`) and is proxied here.
      proxy: { '/api': process.env.API_ORIGIN ?? 'http://127.0.0.1:4321' },
    },
  },
});
