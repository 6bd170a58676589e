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
