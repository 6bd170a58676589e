// @vitest-environment happy-dom
/**
 * The header menus' lazy trigger (src/lib/lazy-module.ts, `useLazyTrigger` and
 * `useTriggerHandoff`): a stand-in button until the menu is loaded; pointer over or focus loads it,
 * a press loads it and opens it; the loaded menu takes over the stand-in's focus; a failed load is
 * tried again at the next intent.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createElement, useRef } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { lazyModule, useLazyTrigger, useTriggerHandoff, type TriggerHandoff } from '../../../src/lib/lazy-module.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Menu(props: TriggerHandoff) {
  const ref = useRef<HTMLButtonElement>(null);
  useTriggerHandoff(ref, props);
  return createElement('button', { ref, type: 'button', 'data-menu': props.defaultOpen ? 'open' : 'closed' }, 'Menu');
}

function harness(importer: () => Promise<{ default: typeof Menu }>) {
  const module = lazyModule(importer);
  function Trigger() {
    const { loaded, handoff, standIn } = useLazyTrigger(module);
    if (loaded) return createElement(loaded.default, handoff);
    return createElement('button', { ...standIn, 'data-stand-in': '' }, 'Menu');
  }
  return Trigger;
}

afterEach(cleanup);

describe('useLazyTrigger', () => {
  it('loads on pointer over without opening, and a press opens what it loaded', async () => {
    const importer = vi.fn(async () => ({ default: Menu }));
    render(createElement(harness(importer)));
    const standIn = screen.getByRole('button', { name: 'Menu' });
    expect(standIn.getAttribute('aria-haspopup')).toBe('menu');
    expect(standIn.getAttribute('aria-expanded')).toBe('false');
    fireEvent.pointerEnter(standIn);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Menu' }).dataset.menu).toBe('closed'));
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('a press (primary button, Enter or a click) opens the menu once loaded', async () => {
    const Trigger = harness(async () => ({ default: Menu }));
    render(createElement(Trigger));
    fireEvent.keyDown(screen.getByRole('button', { name: 'Menu' }), { key: 'Enter' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Menu' }).dataset.menu).toBe('open'));
    cleanup();

    render(createElement(harness(async () => ({ default: Menu }))));
    fireEvent.pointerDown(screen.getByRole('button', { name: 'Menu' }), { button: 0 });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Menu' }).dataset.menu).toBe('open'));
    cleanup();

    // A click with no pointer press before it: one made before the island hydrated, replayed by `client:idle-once`.
    render(createElement(harness(async () => ({ default: Menu }))));
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Menu' }).dataset.menu).toBe('open'));
  });

  it('the loaded trigger takes over the focus of the stand-in', async () => {
    render(createElement(harness(async () => ({ default: Menu }))));
    const standIn = screen.getByRole('button', { name: 'Menu' });
    act(() => standIn.focus());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Menu' }).dataset.menu).toBe('closed'));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Menu' }));
  });

  it('tries a failed load again at the next intent', async () => {
    const importer = vi.fn().mockRejectedValueOnce(new Error('chunk failed')).mockResolvedValue({ default: Menu });
    render(createElement(harness(importer)));
    const standIn = screen.getByRole('button', { name: 'Menu' });
    fireEvent.pointerEnter(standIn);
    await waitFor(() => expect(importer).toHaveBeenCalledTimes(1));
    await act(async () => {});
    expect(screen.getByRole('button', { name: 'Menu' }).hasAttribute('data-stand-in')).toBe(true);
    fireEvent.pointerEnter(standIn);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Menu' }).dataset.menu).toBe('closed'));
    expect(importer).toHaveBeenCalledTimes(2);
  });
});
