/**
 * `client:consent`: hydrates the cookie banner when a visitor who has not chosen yet reaches for
 * it (a pointer over it, a touch, focus inside it), and otherwise only when they ask for it
 * ("Cookie settings"), so no visitor loads its code with the page. The prerendered banner shows
 * at once and its three buttons answer before it hydrates (EARLY_CONSENT_INLINE_SCRIPT); the
 * switches need the island. BaseLayout's inline script marks `<html data-consent-saved>` before
 * this runs.
 */
import type { ClientDirective } from 'astro';
import { hydrateOnce } from './hydrate-once.ts';
import { CONSENT_SETTINGS_EVENT, wasSent } from '../../platform/events.ts';

/** What shows that a visitor reaches for the banner. */
const REACH_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin'] as const;

const consent: ClientDirective = (load, _options, island) => {
  let started = false;
  /** A control clicked before the island was ready ("Customise", a switch): clicked again once it is. */
  let pending: HTMLElement | null = null;
  const hydrate = async (): Promise<void> => {
    if (started) return;
    started = true;
    await hydrateOnce(island, load);
    island.removeEventListener('click', holdClick, true);
    const target = pending;
    pending = null;
    if (target?.isConnected) target.click();
  };
  const holdClick = (event: Event): void => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('button, [role="switch"]') : null;
    // The three choices are answered by EARLY_CONSENT_INLINE_SCRIPT; links follow as usual.
    if (!target || target.hasAttribute('data-consent-choice')) return;
    event.preventDefault();
    pending = target;
    void hydrate();
  };
  if (!document.documentElement.hasAttribute('data-consent-saved')) {
    for (const type of REACH_EVENTS) island.addEventListener(type, () => void hydrate(), { once: true, passive: true });
    island.addEventListener('click', holdClick, true);
    if (island.contains(document.activeElement)) void hydrate();
    // After a client-side navigation the banner (persisted) keeps the room it needs: its island does that.
    document.addEventListener('astro:after-swap', () => void hydrate(), { once: true });
  }
  document.addEventListener(CONSENT_SETTINGS_EVENT, () => void hydrate(), { once: true });
  // "Cookie settings" asked for before this listener: open them now.
  if (wasSent(CONSENT_SETTINGS_EVENT)) void hydrate();
};

export default consent;
