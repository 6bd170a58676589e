import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/**
 * Our client directives: islands hydrated on demand (src/app/directives/): `client:consent` (the
 * cookie banner: at once for a first visit, else when asked for) and `client:toast` (the toaster:
 * at the first toast or F8), `client:intent` (a guest's form: when the visitor reaches for it) and
 * `client:reauth` (the re-authentication dialog: when a sensitive call first asks for it), and
 * `client:idle-once` (the header's controls: `client:idle`, hydrated once across navigations). All
 * hydrate through hydrate-once.ts: a persisted island is never hydrated twice.
 */
export default function clientDirectives(): AstroIntegration {
  return {
    name: 'fieldwork-client-directives',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'consent', entrypoint: fileURLToPath(new URL('../src/app/directives/consent.ts', import.meta.url)) });
        addClientDirective({ name: 'intent', entrypoint: fileURLToPath(new URL('../src/app/directives/intent.ts', import.meta.url)) });
        addClientDirective({ name: 'toast', entrypoint: fileURLToPath(new URL('../src/app/directives/toast.ts', import.meta.url)) });
        addClientDirective({ name: 'reauth', entrypoint: fileURLToPath(new URL('../src/app/directives/reauth.ts', import.meta.url)) });
        addClientDirective({ name: 'idle-once', entrypoint: fileURLToPath(new URL('../src/app/directives/idle-once.ts', import.meta.url)) });
      },
    },
  };
}
