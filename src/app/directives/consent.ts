/**
 * `client:consent`: hydrates the cookie banner at once for a visitor who has not chosen yet, and
 * otherwise only when they ask for it ("Cookie settings"), so returning visitors do not load its
 * code. BaseLayout's inline script marks `<html data-consent-saved>` before this runs.
 */
import type { ClientDirective } from 'astro';
import { CONSENT_SETTINGS_EVENT, wasSent } from '../../platform/events.ts';

const consent: ClientDirective = (load) => {
  let started = false;
  const hydrate = async (): Promise<void> => {
    if (started) return;
    started = true;
    const hydrator = await load();
    await hydrator();
  };
  if (!document.documentElement.hasAttribute('data-consent-saved')) {
    void hydrate();
    return;
  }
  document.addEventListener(CONSENT_SETTINGS_EVENT, () => void hydrate(), { once: true });
  // "Cookie settings" asked for before this listener: open them now.
  if (wasSent(CONSENT_SETTINGS_EVENT)) void hydrate();
};

export default consent;
