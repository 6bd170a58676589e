/**
 * `client:intent`: hydrates a prerendered island — a guest's form — when the visitor first reaches
 * for it (a pointer over it, a touch or press, focus inside it, a key, typed or autofilled input)
 * instead of with the page, so a page whose only islands use it loads no React at start
 * (docs/decisions/027-hydration-on-intent.md). Its value lists when to hydrate at once instead:
 * `signed-in` (a signed-in visitor, whose form starts from their account: the contact form) and
 * `?token` (the address has a `token` parameter: a mailed link). While such a visitor waits for it,
 * the island is marked `data-waking` and its parts marked `data-guest-only` (the prerendered
 * by-email form of /data-deletion) are hidden (global.css): they are not what that visitor gets.
 *
 * Nothing is lost meanwhile: what was typed stays in the fields and react-hook-form keeps a value
 * edited before its field registered; a press on a control that needs the island (a password's
 * Show button, a checkbox, the submit button) is replayed once it has hydrated, and so is Enter in
 * a field (the form is submitted then: its messages show). Until React has hydrated it the submit
 * button (`heldBeforeHydration`) is a plain enabled button behind a hidden disabled submit button,
 * the form's default (components/ui/button.tsx), so the browser never submits the form by itself — a native submit
 * would be a GET with the password in the address — and the replays wait for that guard to go.
 */
import type { ClientDirective } from 'astro';
import { hydrateOnIntent, hydrated } from './hydrate-once.ts';
import { SIGNED_IN_EVENT, wasSent } from '../../platform/events.ts';

const intent: ClientDirective = (load, options, island) => {
  const { hydrate, started } = hydrateOnIntent(load, island);

  /** Hydrates at once for a visitor the prerendered island is not for (see above). */
  const wake = (): void => {
    if (started()) return;
    island.setAttribute('data-waking', '');
    void hydrate()
      .then(() => hydrated(island))
      .finally(() => requestAnimationFrame(() => island.removeAttribute('data-waking')));
  };

  const conditions = typeof options.value === 'string' ? options.value.split(/\s+/) : [];
  if (conditions.includes('?token') && new URLSearchParams(location.search).has('token')) wake();
  if (conditions.includes('signed-in')) {
    if (wasSent(SIGNED_IN_EVENT)) wake();
    else document.addEventListener(SIGNED_IN_EVENT, wake, { once: true });
  }
};

export default intent;
