/**
 * `client:reauth`: hydrates the re-authentication dialog when a sensitive call first asks for it
 * (src/stores/reauth.ts), so pages that never need it do not load its code.
 */
import type { ClientDirective } from 'astro';
import { hydrateOnce } from './hydrate-once.ts';
import { REAUTH_EVENT, wasSent } from '../../platform/events.ts';

const reauth: ClientDirective = (load, _options, island) => {
  let started = false;
  const hydrate = async (): Promise<void> => {
    if (started) return;
    started = true;
    await hydrateOnce(island, load);
  };
  document.addEventListener(REAUTH_EVENT, () => void hydrate(), { once: true });
  // Asked for before this listener was in place: now.
  if (wasSent(REAUTH_EVENT)) void hydrate();
};

export default reauth;
