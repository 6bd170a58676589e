/**
 * Hydrates an island once, whichever directive call asks first. A persisted island
 * (`transition:persist`) is moved into the next page at a client-side navigation, and moving it
 * runs its directive again: two calls then reached the hydrator before the first had finished,
 * and React's second render of a root still hydrating is an error (#424, "This root received an
 * early update"). The first call's hydration is kept on the element itself — each directive is
 * bundled on its own, so module state is not shared — and every later call waits for that one.
 */
type Hydrate = () => Promise<void>;

const IN_FLIGHT = Symbol.for('fieldwork.island-hydration');

type Island = HTMLElement & { [IN_FLIGHT]?: Promise<void> };

/** Loads the island's code and hydrates it, unless another call already does: then waits for that. */
export async function hydrateOnce(island: HTMLElement, load: () => Promise<Hydrate>): Promise<void> {
  const element = island as Island;
  const hydrate = await load();
  const earlier = element[IN_FLIGHT];
  if (earlier) return earlier;
  // Out of the page between two (mid-swap): the call that puts it back hydrates it.
  if (!element.isConnected) return;
  const hydration = hydrate().catch((error: unknown) => {
    delete element[IN_FLIGHT];
    throw error;
  });
  element[IN_FLIGHT] = hydration;
  return hydration;
}

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
export function hydrated(island: HTMLElement): Promise<boolean> {
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

/**
 * Watches an island for a visitor reaching for it and hydrates it then (once, through
 * hydrateOnce); a press or an Enter made before it was ready is replayed once it is. Returns the
 * hydration trigger, for the directive's own reasons to hydrate (idle time, a signed-in visitor),
 * and whether it was pulled. `client:intent` and `client:idle-once` use it: a header control
 * pressed before the browser was idle still opens its menu.
 */
export function hydrateOnIntent(load: () => Promise<Hydrate>, island: HTMLElement): { hydrate: () => Promise<void>; started: () => boolean } {
  // A persisted island moved into the next page runs its directive again: it is hydrated (or on
  // its way), so nothing is held or replayed — React answers its presses.
  if ((island as Island)[IN_FLIGHT]) return { hydrate: () => hydrateOnce(island, load), started: () => true };
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

  listen(true);
  // Focus already inside (the visitor tabbed in before this ran).
  if (island.contains(document.activeElement)) void hydrate();
  return { hydrate, started: () => started };
}
