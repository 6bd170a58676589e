/**
 * A module loaded on first intent (a pointer over, a focus, a press) instead of with the page,
 * shared by every caller. The header's menus use it: Radix's menu, popper and focus code is about
 * a fifth of a page's JavaScript and only matters once someone opens a menu.
 *
 * `useLazyTrigger` is the one way a header menu does it (account menu, notifications bell, colour
 * mode): a stand-in button of the same look until the menu is loaded, whose pointer over or focus
 * loads it and whose press opens it; the loaded menu takes over the stand-in's focus with
 * `useTriggerHandoff`.
 */
import {
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
  type RefObject,
} from 'react';

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

/** What the loaded menu receives from the stand-in it replaces. */
export interface TriggerHandoff {
  /** Opened by the press that loaded it. */
  defaultOpen: boolean;
  /** The stand-in button had focus: the real trigger takes it over. */
  focusTrigger: boolean;
}

/** The props of the stand-in button (spread onto a `<button>` of the same look as the real trigger). */
export interface StandInProps {
  type: 'button';
  'aria-haspopup': 'menu';
  'aria-expanded': false;
  onPointerEnter: () => void;
  onFocus: () => void;
  onBlur: () => void;
  onPointerDown: (event: ReactPointerEvent) => void;
  onKeyDown: (event: ReactKeyboardEvent) => void;
  /** A click without a pointer press first: one made before the island hydrated, replayed (`client:idle-once`). */
  onClick: () => void;
}

export interface LazyTrigger<T> {
  /** The module once loaded (render the real menu with `handoff`), else null (render a `<button>` with `standIn`). */
  loaded: T | null;
  handoff: TriggerHandoff;
  standIn: StandInProps;
}

/**
 * A trigger button that loads its menu on first intent: pointer over or focus loads it, a press
 * (primary button, Enter, Space, ArrowDown, a click) loads it and opens it once loaded. A failed
 * load is tried again at the next intent.
 */
export function useLazyTrigger<T>(module: LazyModule<T>): LazyTrigger<T> {
  const loaded = useLazyModule(module);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const standInFocused = useRef(false);
  const preload = (): void => {
    module.load().catch(() => {
      // Tried again at the next intent.
    });
  };
  const openWhenLoaded = (): void => {
    setOpenOnLoad(true);
    preload();
  };
  return {
    loaded,
    handoff: { defaultOpen: openOnLoad, focusTrigger: standInFocused.current },
    standIn: {
      type: 'button',
      'aria-haspopup': 'menu',
      'aria-expanded': false,
      onPointerEnter: preload,
      onFocus: () => {
        standInFocused.current = true;
        preload();
      },
      onBlur: () => {
        standInFocused.current = false;
      },
      onPointerDown: (event) => {
        if (event.button !== 0 || event.ctrlKey) return;
        event.preventDefault();
        openWhenLoaded();
      },
      onKeyDown: (event) => {
        if (event.key !== 'Enter' && event.key !== ' ' && event.key !== 'ArrowDown') return;
        event.preventDefault();
        openWhenLoaded();
      },
      onClick: openWhenLoaded,
    },
  };
}

/** In the loaded menu: its trigger takes the focus the stand-in had (once, as it replaces the stand-in). */
export function useTriggerHandoff(trigger: RefObject<HTMLElement | null>, { defaultOpen, focusTrigger }: TriggerHandoff): void {
  useEffect(() => {
    if (focusTrigger && !defaultOpen) trigger.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on mount: the trigger takes the stand-in's focus as it replaces it, never again
  }, []);
}
