// @vitest-environment happy-dom
/**
 * src/app/island-unmount.ts against the React we ship: an island dropped by a navigation while its
 * root still hydrates is unmounted once it has, without React's error #424 ("This root received an
 * early update…"); unguarded, the same unmount is that error.
 */
import { createElement, startTransition, useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { HOLD_LIMIT_MS, holdUnmountUntilHydrated, reactRootHydrating } from '../../../src/app/island-unmount.ts';

function Island() {
  const [count] = useState(1);
  return createElement('button', { type: 'button' }, `Count ${count}`);
}

/** A server-rendered island in the page, hydrating the way @astrojs/react's client starts it. */
function hydratingIsland() {
  const island = document.createElement('astro-island');
  island.innerHTML = renderToString(createElement(Island));
  document.body.append(island);
  const recoverableErrors: unknown[] = [];
  startTransition(() => {
    const root = hydrateRoot(island, createElement(Island), { onRecoverableError: (error) => recoverableErrors.push(error) });
    island.addEventListener('astro:unmount', () => root.unmount(), { once: true });
  });
  return { island, recoverableErrors };
}

/** What the router does to an island the next page does not keep. */
function dropByNavigation(island: HTMLElement) {
  island.remove();
  island.dispatchEvent(new CustomEvent('astro:unmount'));
}

describe('an island dropped before it has hydrated', () => {
  it('is unmounted once its root has hydrated, without an error', async () => {
    const { island, recoverableErrors } = hydratingIsland();
    expect(reactRootHydrating(island)).toBe(true);
    holdUnmountUntilHydrated(island);
    dropByNavigation(island);
    expect(island.textContent).toBe('Count 1');
    await vi.waitFor(() => expect(island.childNodes).toHaveLength(0));
    expect(reactRootHydrating(island)).toBe(false);
    expect(recoverableErrors).toEqual([]);
  });

  it('unguarded, the same unmount is the early-update error', async () => {
    const { island, recoverableErrors } = hydratingIsland();
    dropByNavigation(island);
    await vi.waitFor(() => expect(recoverableErrors).toHaveLength(1));
    expect(String(recoverableErrors[0])).toMatch(/early update/);
  });

  it('an island put back into the page meanwhile stays mounted', async () => {
    const { island } = hydratingIsland();
    holdUnmountUntilHydrated(island);
    dropByNavigation(island);
    document.body.append(island);
    await vi.waitFor(() => expect(reactRootHydrating(island)).toBe(false));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(island.textContent).toBe('Count 1');
  });
});

describe('an island that has hydrated', () => {
  it('is unmounted at once', async () => {
    const { island } = hydratingIsland();
    holdUnmountUntilHydrated(island);
    await vi.waitFor(() => expect(reactRootHydrating(island)).toBe(false));
    dropByNavigation(island);
    expect(island.childNodes).toHaveLength(0);
  });
});

describe('a root that never finishes hydrating', () => {
  it('is unmounted once, after the hold limit', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    try {
      // As React marks a container whose root still hydrates.
      const island = Object.assign(document.createElement('astro-island'), {
        __reactContainer$test: { stateNode: { current: { memoizedState: { isDehydrated: true } } } },
      });
      const unmounts = vi.fn();
      island.addEventListener('astro:unmount', unmounts);
      holdUnmountUntilHydrated(island);
      island.dispatchEvent(new CustomEvent('astro:unmount'));
      expect(unmounts).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(HOLD_LIMIT_MS + 100);
      expect(unmounts).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(HOLD_LIMIT_MS * 2);
      expect(unmounts).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
