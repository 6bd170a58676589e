/**
 * Islands dropped by a client-side navigation are unmounted by their renderer: Astro sends
 * `astro:unmount` to each one the new page does not keep, and @astrojs/react answers with
 * `root.unmount()`. A visitor who follows a link before an island has hydrated (the header's
 * controls hydrate when the browser is idle) unmounted a root whose hydration was still under way,
 * which React reports as an uncaught error (#424, "This root received an early update, before
 * anything was able to hydrate") — one more line in the operators' client-error log for nothing.
 * Before every swap each island gets a guard that holds the unmount back until its root has
 * hydrated (or HOLD_LIMIT_MS has passed), then lets it through.
 */
/** Longest an unmount waits for a hydration (then it goes through, as it did without the guard). */
export const HOLD_LIMIT_MS = 5_000;
const RECHECK_MS = 25;

const guarded = new WeakSet<Element>();

type HostRootFiber = { stateNode?: { current?: { memoizedState?: { isDehydrated?: boolean } | null } | null } | null } | null;

/**
 * True while the React root on this element is still hydrating. React keeps no public way to ask;
 * this reads the root React keeps on its container (the key @astrojs/react's client looks for too).
 * tests/unit/shell/island-unmount.test.ts checks it against the React we ship.
 */
export function reactRootHydrating(element: Element): boolean {
  const key = Object.keys(element).find((name) => name.startsWith('__reactContainer$'));
  if (!key) return false;
  const fiber = (element as unknown as Record<string, HostRootFiber>)[key];
  return fiber?.stateNode?.current?.memoizedState?.isDehydrated === true;
}

/** Holds `astro:unmount` on this island back while its root hydrates; sent again once it has. */
export function holdUnmountUntilHydrated(island: HTMLElement): void {
  if (guarded.has(island)) return;
  guarded.add(island);
  /** Held once already: the unmount sent again goes through, hydrated or not (after HOLD_LIMIT_MS). */
  let held = false;
  // Capture at the target runs before the renderer's own listener, which stays registered.
  island.addEventListener(
    'astro:unmount',
    (event) => {
      if (held || !reactRootHydrating(island)) return;
      held = true;
      event.stopImmediatePropagation();
      const since = performance.now();
      const recheck = (): void => {
        // Put back into a page meanwhile (a navigation back that keeps it): it stays mounted, and a later unmount is held again.
        if (island.isConnected) {
          held = false;
          return;
        }
        if (reactRootHydrating(island) && performance.now() - since < HOLD_LIMIT_MS) setTimeout(recheck, RECHECK_MS);
        else island.dispatchEvent(new CustomEvent('astro:unmount'));
      };
      setTimeout(recheck, RECHECK_MS);
    },
    { capture: true },
  );
}

/** The shell's boot step: every island on the page is guarded before a navigation swaps it out. */
export function guardIslandUnmounts(): void {
  document.addEventListener('astro:before-swap', () => {
    for (const island of document.querySelectorAll<HTMLElement>('astro-island')) holdUnmountUntilHydrated(island);
  });
}
