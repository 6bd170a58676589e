/**
 * Toasts (docs/product.md §3, §4, §9) in the shadcn/ui model on Radix Toast: add, update, dismiss (closes,
 * then removed after TOAST_REMOVE_DELAY_MS) and remove (gone now). At most TOAST_LIMIT are kept:
 * a new toast replaces the one shown. The Toaster island renders the store.
 */
import { TOAST_EVENT, wake } from '../platform/events.ts';
import { atom } from 'nanostores';
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS, TOAST_TYPES } from '../shared/ui-constants.ts';

export type ToastType = (typeof TOAST_TYPES)[number];

export interface ToastAction {
  label: string;
  /** Describes the action for screen readers when the toast is announced (Radix `altText`). */
  altText: string;
  onClick: () => void;
}

export interface Toast {
  id: string;
  title?: string;
  description?: string;
  action?: ToastAction;
  open: boolean;
  /** `foreground` (announced at once: the visitor did something) or `background`. */
  type: ToastType;
  /** Overrides the default auto-close duration (ms). */
  duration?: number;
  variant?: 'default' | 'destructive';
}

export type ToastInput = Omit<Toast, 'id' | 'open' | 'type'> & { type?: string };

export const $toasts = atom<Toast[]>([]);

/** docs/product.md §5: a toast's type is foreground or background; anything else is refused. */
export function validateToastType(type: string | undefined): ToastType {
  const value = type ?? 'foreground';
  if (!(TOAST_TYPES as readonly string[]).includes(value)) throw new Error(`Toast type must be foreground or background, not "${value}"`);
  return value as ToastType;
}

let counter = 0;
const nextId = (): string => {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return String(counter);
};

const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleRemoval(id: string): void {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      removeToast(id);
    }, TOAST_REMOVE_DELAY_MS),
  );
}

/** Adds a toast (replacing older ones beyond the limit); returns its id. */
export function addToast(input: ToastInput): string {
  const type = validateToastType(input.type);
  const id = nextId();
  const toast: Toast = { ...input, id, type, open: true };
  $toasts.set([toast, ...$toasts.get()].slice(0, TOAST_LIMIT));
  // The toaster's island hydrates at the first toast (client:toast).
  wake(TOAST_EVENT);
  return id;
}

export function updateToast(id: string, patch: Partial<Omit<Toast, 'id'>>): void {
  if (patch.type !== undefined) validateToastType(patch.type);
  $toasts.set($toasts.get().map((toast) => (toast.id === id ? { ...toast, ...patch, id } : toast)));
}

/** Closes one toast (or every toast without an id); each is removed after the removal delay. */
export function dismissToast(id?: string): void {
  const targets = $toasts.get().filter((toast) => id === undefined || toast.id === id);
  for (const toast of targets) scheduleRemoval(toast.id);
  $toasts.set($toasts.get().map((toast) => (id === undefined || toast.id === id ? { ...toast, open: false } : toast)));
}

/** Removes one toast (or all) at once. */
export function removeToast(id?: string): void {
  for (const [key, timer] of removeTimers) {
    if (id === undefined || key === id) {
      clearTimeout(timer);
      removeTimers.delete(key);
    }
  }
  $toasts.set(id === undefined ? [] : $toasts.get().filter((toast) => toast.id !== id));
}

/** Shorthand: `toast({ title, description })` → { id, dismiss, update }. */
export function toast(input: ToastInput): { id: string; dismiss: () => void; update: (patch: Partial<Omit<Toast, 'id'>>) => void } {
  const id = addToast(input);
  return { id, dismiss: () => dismissToast(id), update: (patch) => updateToast(id, patch) };
}
