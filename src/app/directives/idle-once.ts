/**
 * `client:idle-once`: Astro's `client:idle` (hydrate when the browser is idle) for the header's
 * persisted islands, through hydrateOnce: a navigation before the first idle moment ran the
 * directive twice, and the second hydration of the same root was React error #424.
 *
 * A visitor who reaches for the control first (pointer over, focus, a press) does not wait for the
 * idle moment: the island hydrates then, and a press made before it was ready is replayed once it
 * is (hydrateOnIntent), so the menu opens at the first press even on a busy phone.
 */
import type { ClientDirective } from 'astro';
import { hydrateOnIntent } from './hydrate-once.ts';

const idleOnce: ClientDirective = (load, _options, island) => {
  const { hydrate } = hydrateOnIntent(load, island);
  const whenIdle = (): void => void hydrate();
  if ('requestIdleCallback' in window) window.requestIdleCallback(whenIdle);
  else setTimeout(whenIdle, 200);
};

export default idleOnce;
