/**
 * `client:idle-once`: Astro's `client:idle` (hydrate when the browser is idle) for the header's
 * persisted islands, through hydrateOnce: a navigation before the first idle moment ran the
 * directive twice, and the second hydration of the same root was React error #424.
 */
import type { ClientDirective } from 'astro';
import { hydrateOnce } from './hydrate-once.ts';

const idleOnce: ClientDirective = (load, _options, island) => {
  const hydrate = (): void => void hydrateOnce(island, load);
  if ('requestIdleCallback' in window) window.requestIdleCallback(hydrate);
  else setTimeout(hydrate, 200);
};

export default idleOnce;
