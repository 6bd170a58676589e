// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import clientDirectives from './builds/directives.ts';
import buildManifests from './builds/integration.ts';
import languagePages from './builds/languages.ts';
import { ROUTE_RULES } from './builds/route-rules.ts';

// Static output: every page is prerendered; dynamic routes are one shell each (see src/shared/routes.ts).
export default defineConfig({
  output: 'static',
  outDir: process.env.DIST_DIR ?? './dist',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  integrations: [
    react(),
    clientDirectives(),
    languagePages(),
    // Route rules: builds/route-rules.ts (scripts/build.ts writes the manifests of a whole build with them too).
    buildManifests({ routeRules: ROUTE_RULES }),
  ],
  devToolbar: { enabled: false },
  prefetch: false,
  vite: {
    plugins: [tailwindcss()],
    build: {
      // Every page loads React and the shell's small modules (platform, stores, route rules): one
      // chunk each instead of ~20 tiny ones saves ~3.5 KB gzip on every page's first visit
      // (`npm run page-js`; the survey screen's budget is 150 KB). Add only modules every page loads
      // (`platform/upload.ts` is the admin tools' alone: it stays with them; `shared/offline.ts`,
      // the names the page, the outbox and the service worker share, is loaded by every page).
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|rolldown[\\/]runtime/ },
              {
                name: 'shell',
                test: /src[\\/]platform[\\/](?!upload\.ts)|src[\\/]stores[\\/]|src[\\/]shared[\\/](route-rules|routes|roles|ui-constants|languages|i18n)\.ts|src[\\/]paraglide[\\/](runtime|registry)\.js|src[\\/]lib[\\/](navigation|navigation-target|user|session)\.ts|src[\\/]shared[\\/]offline\.ts|node_modules[\\/]nanostores[\\/]|node_modules[\\/]astro[\\/]dist[\\/]transitions[\\/]|vite[\\/]preload-helper/,
              },
              // What the header's islands use on every page that has them: the React hooks of src/lib
              // (stores, auth, lazy menus; React-free pages such as /login must not load them with the
              // shell), the faces their stand-ins share with the lazy menus (bell, colour-mode icons)
              // and what they draw (avatar, spinner, icons, button styles: class-variance-authority
              // and clsx, no tailwind-merge), kept apart from the rest of the UI kit so that a page whose
              // only islands are the header's (/terms, /privacy) does not load tailwind-merge (~7 KB
              // brotli) and the form parts (issue 19, "page weight").
              {
                name: 'ui-base',
                test: /src[\\/]lib[\\/](use-client-store|use-auth|lazy-module)\.ts|src[\\/]islands[\\/](shell[\\/]color-mode-options\.tsx|notifications[\\/](bell-face\.tsx|notification-words\.ts))|src[\\/]components[\\/](ui[\\/](avatar\.tsx|button-variants\.ts|spinner\.tsx)|icons\.tsx)|node_modules[\\/](clsx|class-variance-authority)[\\/]/,
              },
              // The UI kit's parts nearly every other island draws (buttons, fields, alerts) with
              // tailwind-merge and Radix's small shared internals: one chunk instead of ~15 of under
              // 1 KB, each of which costs a request and its ~0.7 KB of headers (issue 19, "page weight").
              // With them the states' Loading and Failed, which exactly the pages that load this chunk
              // load beside it (issue 31, 2026-12-01).
              {
                name: 'ui',
                test: /src[\\/]components[\\/](ui[\\/](alert|badge|button|card|form-field|input|label|password-input|skeleton)\.tsx|FormAlert\.tsx|states[\\/](Loading|Failed)\.tsx)|src[\\/]lib[\\/]utils\.ts|node_modules[\\/]tailwind-merge[\\/]|node_modules[\\/]@radix-ui[\\/](primitive|react-(slot|compose-refs|primitive|context|use-layout-effect|use-controllable-state|use-callback-ref|id|label|use-effect-event|use-is-hydrated))[\\/]/,
              },
              // What the same pages load with no React in it (the form's words of form-errors.ts with
              // the validation words, shared/messages.ts, the forms' constants and logic, the calendar
              // day): one chunk instead of four. It must stay React-free: the reset and onboarding links are checked
              // before React loads (lib/token-check.ts imports form-errors.ts), so nothing here may
              // go into a chunk that imports React (identity.spec.ts holds React back and checks it).
              {
                name: 'forms-core',
                test: /src[\\/]lib[\\/]form-errors\.ts|src[\\/]shared[\\/](messages|validation-words|calendar-day|forms[\\/](constants|logic))\.ts/,
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
