/**
 * A nanostores value in a React island that hydrates cleanly: while hydrating, the island renders
 * `serverValue` (what the prerendered HTML holds), then the store's value in the browser. The
 * shell's stores are filled before islands hydrate (consent, colour mode, banner), which would
 * otherwise make the first render differ from the HTML.
 */
import { useCallback, useSyncExternalStore } from 'react';
import type { ReadableAtom } from 'nanostores';

export function useClientStore<T>(store: ReadableAtom<T>, serverValue: T): T {
  const subscribe = useCallback((onChange: () => void) => store.listen(onChange), [store]);
  return useSyncExternalStore(
    subscribe,
    () => store.get(),
    () => serverValue,
  );
}
