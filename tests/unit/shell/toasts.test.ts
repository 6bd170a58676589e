import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $toasts, addToast, dismissToast, removeToast, toast, updateToast, validateToastType } from '../../../src/stores/toasts.ts';
import { toastProviderLabel } from '../../../src/components/ui/toast.tsx';
import { TOAST_DURATION_MS, TOAST_HOTKEY, TOAST_LABEL, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '../../../src/shared/ui-constants.ts';

beforeEach(() => {
  vi.useFakeTimers();
  removeToast();
});
afterEach(() => {
  removeToast();
  vi.useRealTimers();
});

describe('toasts (docs/product.md §3, §4, §9)', () => {
  it('uses the specified constants', () => {
    expect([TOAST_LIMIT, TOAST_REMOVE_DELAY_MS, TOAST_DURATION_MS, TOAST_LABEL, TOAST_HOTKEY]).toEqual([1, 1_000_000, 5000, 'Notification', ['F8']]);
  });

  it('adds an open foreground toast and shows one at a time: a new one replaces it', () => {
    const first = addToast({ title: 'One' });
    expect($toasts.get()).toEqual([{ id: first, title: 'One', open: true, type: 'foreground' }]);
    const second = addToast({ title: 'Two', type: 'background' });
    expect($toasts.get().map((t) => t.id)).toEqual([second]);
    expect($toasts.get()[0]?.type).toBe('background');
  });

  it('updates a toast in place', () => {
    const { id, update } = toast({ title: 'Saving' });
    update({ title: 'Saved', description: 'All done' });
    expect($toasts.get()).toEqual([{ id, title: 'Saved', description: 'All done', open: true, type: 'foreground' }]);
    updateToast('missing', { title: 'x' });
    expect($toasts.get()).toHaveLength(1);
  });

  it('dismiss closes now and removes after 1000000 ms', () => {
    const id = addToast({ title: 'Bye' });
    dismissToast(id);
    expect($toasts.get()[0]?.open).toBe(false);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect($toasts.get()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect($toasts.get()).toEqual([]);
  });

  it('dismiss without an id closes every toast; remove takes them away at once', () => {
    addToast({ title: 'A' });
    dismissToast();
    expect($toasts.get().every((t) => !t.open)).toBe(true);
    removeToast();
    expect($toasts.get()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('validates the type: foreground or background', () => {
    expect(validateToastType(undefined)).toBe('foreground');
    expect(validateToastType('background')).toBe('background');
    expect(() => addToast({ title: 'x', type: 'sideways' })).toThrow(/foreground or background/);
    expect(() => updateToast('1', { type: 'up' as 'foreground' })).toThrow();
  });

  it('requires a non-empty provider label', () => {
    expect(toastProviderLabel(undefined)).toBe('Notification');
    expect(() => toastProviderLabel('  ')).toThrow(/must not be empty/);
  });
});
