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
import { hydrateOnce } from './hydrate-once.ts';
import { SIGNED_IN_EVENT, wasSent } from '../../platform/events.ts';

/** What shows that a visitor reaches for the island. */
const REACH_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'input'] as const;

/** How long the replays wait for React to finish hydrating (after that they are dropped). */
const READY_TIMEOUT_MS = 5_000;

/** Fields where Enter submits the form (implicit submission). */
const SUBMITTING_FIELD = 'input:not([type="checkbox"]):not([type="radio"]):not([type="button"]):not([type="submit"]):not([type="reset"])';

/**
 * Resolves true once React has committed the hydrated island, its handlers in place: hydration is
 * asynchronous, so the hydrator's promise is not enough. A form's submit button says so (its
 * disabled guard is removed by an effect once mounted); an island without one is taken as ready on
 * the next task.
 */
function hydrated(island: HTMLElement): Promise<boolean> {
  const started = performance.now();
  return new Promise((resolve) => {
    const check = (): void => {
      if (!island.querySelector('button[type="submit"]:disabled')) resolve(true);
      else if (performance.now() - started > READY_TIMEOUT_MS) resolve(false);
      else setTimeout(check, 25);
    };
    setTimeout(check, 0);
  });
}

const intent: ClientDirective = (load, options, island) => {
  let started = false;
  /** A control pressed before the island was ready: pressed again once it is. */
  let pendingClick: HTMLElement | null = null;
  /** The form whose field got an Enter before the island was ready: submitted once it is. */
  let pendingSubmit: HTMLFormElement | null = null;

  const holdClick = (event: Event): void => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('button, [role="switch"], [role="checkbox"]') : null;
    if (!target || !island.contains(target)) return;
    event.preventDefault();
    pendingClick = target;
    void hydrate();
  };
  const holdEnter = (event: KeyboardEvent): void => {
    if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement) || !event.target.matches(SUBMITTING_FIELD)) return;
    pendingSubmit = event.target.form;
  };
  const reach = (): void => void hydrate();

  const listen = (on: boolean): void => {
    const method = on ? 'addEventListener' : 'removeEventListener';
    for (const type of REACH_EVENTS) island[method](type, reach, { passive: true });
    island[method]('click', holdClick, true);
    island[method]('keydown', holdEnter as EventListener, true);
  };

  async function hydrate(): Promise<void> {
    if (started) return;
    started = true;
    try {
      await hydrateOnce(island, load);
    } catch {
      // The island's code did not load (offline; the build watcher sees the failed chunk): the
      // next intent tries again.
      started = false;
      return;
    }
    listen(false);
    const click = pendingClick;
    const form = pendingSubmit;
    pendingClick = null;
    pendingSubmit = null;
    if (!click && !form) return;
    if (!(await hydrated(island))) return;
    if (click?.isConnected) click.click();
    else if (form?.isConnected) form.requestSubmit();
  }

  /** Hydrates at once for a visitor the prerendered island is not for (see above). */
  const wake = (): void => {
    if (started) return;
    island.setAttribute('data-waking', '');
    void hydrate()
      .then(() => hydrated(island))
      .finally(() => requestAnimationFrame(() => island.removeAttribute('data-waking')));
  };

  listen(true);
  // Focus already inside (the visitor tabbed in before this ran).
  if (island.contains(document.activeElement)) void hydrate();
  const conditions = typeof options.value === 'string' ? options.value.split(/\s+/) : [];
  if (conditions.includes('?token') && new URLSearchParams(location.search).has('token')) wake();
  if (conditions.includes('signed-in')) {
    if (wasSent(SIGNED_IN_EVENT)) wake();
    else document.addEventListener(SIGNED_IN_EVENT, wake, { once: true });
  }
};

export default intent;
