import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RELOAD_GUARD_KEY, checkBuild, claimReload, fetchLatestBuild, isChunkFailure, shouldReloadFor } from '../../../src/app/build-watcher.ts';
import { $build, isOutdated } from '../../../src/stores/build.ts';
import { RELOAD_GUARD_MS } from '../../../src/shared/ui-constants.ts';
import { MemoryStorage, jsonResponse } from './fakes.ts';

const meta = { id: 'a1', timestamp: 1, matcher: { static: {}, wildcard: {}, dynamic: {} }, prerendered: ['/terms'] };

beforeEach(() => {
  $build.set({ running: null, latest: null, meta: null });
});

describe('build watcher (docs/product.md §4, §9)', () => {
  it('fetches latest.json with a cache-busting timestamp', async () => {
    const fetch = vi.fn(async (_url: string) => jsonResponse({ id: 'a1', timestamp: 5 }));
    expect(await fetchLatestBuild(fetch, () => 1234)).toEqual({ id: 'a1', timestamp: 5 });
    expect(fetch).toHaveBeenCalledWith('/builds/latest.json?1234', expect.anything());
    expect(await fetchLatestBuild(async () => jsonResponse({}, 200))).toBeNull();
    expect(
      await fetchLatestBuild(async () => {
        throw new Error('offline');
      }),
    ).toBeNull();
  });

  it('takes the first id as the running build, loads its meta, and notices a newer one', async () => {
    let id = 'a1';
    const fetch = vi.fn(async (url: string) => (url.startsWith('/builds/meta/') ? jsonResponse(meta) : jsonResponse({ id, timestamp: 1 })));
    await checkBuild(fetch);
    expect($build.get()).toEqual({ running: 'a1', latest: 'a1', meta });
    expect(fetch.mock.calls.map((call) => call[0])).toContain('/builds/meta/a1.json');
    expect(isOutdated()).toBe(false);
    id = 'b2';
    await checkBuild(fetch);
    expect($build.get()).toMatchObject({ running: 'a1', latest: 'b2' });
    expect(isOutdated()).toBe(true);
  });

  it('allows one full reload per path within 10 s', () => {
    const storage = new MemoryStorage();
    expect(claimReload('/terms', storage, 1000)).toBe(true);
    expect(claimReload('/terms', storage, 1000 + RELOAD_GUARD_MS - 1)).toBe(false);
    expect(claimReload('/privacy', storage, 2000)).toBe(true);
    expect(claimReload('/terms', storage, 1000 + RELOAD_GUARD_MS)).toBe(true);
    storage.setItem(RELOAD_GUARD_KEY, 'garbage');
    expect(claimReload('/terms', storage, 50_000)).toBe(true);
  });

  it('reloads on navigation only while a newer build is out', () => {
    const storage = new MemoryStorage();
    $build.set({ running: 'a1', latest: 'a1', meta: null });
    expect(shouldReloadFor('/terms', storage, 1)).toBe(false);
    $build.set({ running: 'a1', latest: 'b2', meta: null });
    expect(shouldReloadFor('/terms', storage, 2)).toBe(true);
    expect(shouldReloadFor('/terms', storage, 3)).toBe(false);
  });

  it('recognises nothing but elements as chunk failures', () => {
    expect(isChunkFailure(null)).toBe(false);
  });
});
