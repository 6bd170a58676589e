/**
 * A module loaded on first intent (a pointer over, a focus, a press) instead of with the page,
 * shared by every caller. The header's menus use it: Radix's menu, popper and focus code is about
 * a fifth of a page's JavaScript and only matters once someone opens a menu.
 */
import { useSyncExternalStore } from 'react';

export interface LazyModule<T> {
  /** The module once loaded, else null. */
  get(): T | null;
  /** Starts loading (once); resolves with the module. A failed load is tried again next time. */
  load(): Promise<T>;
  subscribe(listener: () => void): () => void;
}

export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let value: T | null = null;
  let pending: Promise<T> | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    load() {
      pending ??= importer().then(
        (loaded) => {
          value = loaded;
          for (const listener of listeners) listener();
          return loaded;
        },
        (error: unknown) => {
          pending = null;
          throw error;
        },
      );
      return pending;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const noModule = (): null => null;

/** The module in a component: null until loaded (and during hydration), then the module. */
export function useLazyModule<T>(module: LazyModule<T>): T | null {
  return useSyncExternalStore(module.subscribe, module.get, noModule);
}
