/**
 * The React side of the autosave engine (`autosave.ts`): one engine per screen (made on the first
 * render, its callbacks reading the latest options), its state for the screen, and the moments it
 * sends at once: the browser coming back online, the page being hidden or left (`keepalive`), the
 * screen unmounting (a client-side navigation). Going offline is said at once.
 */
import { useEffect, useRef, useState } from 'react';
import { createAutosave, type Autosave, type AutosaveOptions, type SaveResult, type SaveStatus } from './autosave.ts';
import { local } from '../platform/storage.ts';

export type UseAutosaveOptions<P, R extends SaveResult, C> = Omit<AutosaveOptions<P, R, C>, 'onStatus' | 'storage'> & {
  /** Default: localStorage. */
  storage?: AutosaveOptions<P, R, C>['storage'];
};

export interface UseAutosave<P, C> {
  status: SaveStatus;
  /** The failure behind `offline`, `retrying`, `conflict` or `error`. */
  error: unknown;
  /** The conflict waiting for the person (status `conflict`), or null. */
  conflict: C | null;
  autosave: Autosave<P, C>;
}

/** Autosaves one payload; see the module comment. `base`, `revision`, `delayMs` and `storage` are read once. */
export function useAutosave<P, R extends SaveResult, C>(options: UseAutosaveOptions<P, R, C>): UseAutosave<P, C> {
  const [state, setState] = useState<{ status: SaveStatus; error: unknown }>({ status: 'saved', error: null });
  const latest = useRef(options);
  latest.current = options;
  const ref = useRef<Autosave<P, C> | null>(null);
  ref.current ??= createAutosave<P, R, C>({
    save: (payload, how) => latest.current.save(payload, how),
    base: options.base,
    revision: options.revision,
    same: (a, b) => latest.current.same(a, b),
    conflictOf: (error) => latest.current.conflictOf(error),
    conflictRevision: (conflict) => latest.current.conflictRevision(conflict),
    onConflict: (conflict, local) => latest.current.onConflict(conflict, local),
    storageKey: () => latest.current.storageKey(),
    storage: options.storage === undefined ? local() : options.storage,
    codec: options.codec,
    onStatus: (status, error) => setState({ status, error }),
    onSaved: (result, payload) => latest.current.onSaved?.(result, payload),
    onRejected: (error) => latest.current.onRejected?.(error),
    ...(options.isOnline ? { isOnline: options.isOnline } : {}),
    delayMs: options.delayMs,
  });
  const autosave = ref.current;

  useEffect(() => {
    const flushNow = () => void autosave.flush();
    const wentOffline = () => autosave.offline();
    const flushLeaving = () => {
      if (autosave.pending()) void autosave.flush({ keepalive: true });
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') flushLeaving();
    };
    window.addEventListener('online', flushNow);
    window.addEventListener('offline', wentOffline);
    window.addEventListener('pagehide', flushLeaving);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('online', flushNow);
      window.removeEventListener('offline', wentOffline);
      window.removeEventListener('pagehide', flushLeaving);
      document.removeEventListener('visibilitychange', onVisibility);
      // Leaving the screen inside the app (client-side navigation): send what is unsent.
      flushLeaving();
      autosave.dispose();
    };
  }, [autosave]);

  return { status: state.status, error: state.error, conflict: autosave.conflict(), autosave };
}
