/**
 * The build watcher (docs/product.md §4, §9; docs/architecture.md "Build manifests"). The id of
 * builds/latest.json at first load is the running build; the file is checked again (with a
 * cache-busting timestamp) every hour and whenever a chunk fails to load (a `chunk-error` event).
 * A newer id makes the next navigation a full page load — at most once per path within
 * RELOAD_GUARD_MS (kept in sessionStorage), so a broken deploy cannot loop.
 */
import type { BuildMeta, LatestBuild } from '../shared/build-manifest.ts';
import { RELOAD_GUARD_MS } from '../shared/ui-constants.ts';
import { $build, isOutdated } from '../stores/build.ts';
import { readItem, session, writeItem, type StorageLike } from '../platform/storage.ts';
import { EARLY_BUILD_LATEST, takeEarlyResponse } from '../platform/early.ts';

export const BUILD_CHECK_INTERVAL_MS = 60 * 60 * 1000;
export const CHUNK_ERROR_EVENT = 'chunk-error';
export const RELOAD_GUARD_KEY = 'fieldwork-build-reload';

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;
const defaultFetch: Fetch = (input, init) => fetch(input, init);

export async function fetchLatestBuild(doFetch: Fetch = defaultFetch, now: () => number = Date.now): Promise<LatestBuild | null> {
  try {
    // The first check takes the answer the page's <head> asked for (src/platform/early.ts).
    const early = doFetch === defaultFetch ? await takeEarlyResponse(EARLY_BUILD_LATEST) : null;
    const response = early ?? (await doFetch(`/builds/latest.json?${now()}`, { cache: 'no-store' }));
    if (!response.ok) return null;
    const data = (await response.json()) as Partial<LatestBuild> | null;
    return data && typeof data.id === 'string' && data.id !== '' ? { id: data.id, timestamp: Number(data.timestamp) || 0 } : null;
  } catch {
    return null;
  }
}

export async function fetchBuildMeta(id: string, doFetch: Fetch = defaultFetch): Promise<BuildMeta | null> {
  try {
    const path = `/builds/meta/${encodeURIComponent(id)}.json`;
    const early = doFetch === defaultFetch ? await takeEarlyResponse(path) : null;
    const response = early ?? (await doFetch(path));
    if (!response.ok) return null;
    const meta = (await response.json()) as BuildMeta | null;
    return meta && typeof meta === 'object' && meta.matcher ? meta : null;
  } catch {
    return null;
  }
}

/** Checks latest.json: the first answer sets the running build (and loads its meta); later ones the latest. */
export async function checkBuild(doFetch: Fetch = defaultFetch, now: () => number = Date.now): Promise<void> {
  const latest = await fetchLatestBuild(doFetch, now);
  if (!latest) return;
  const state = $build.get();
  if (state.running === null) {
    $build.set({ ...state, running: latest.id, latest: latest.id });
    const meta = await fetchBuildMeta(latest.id, doFetch);
    $build.set({ ...$build.get(), meta });
  } else if (latest.id !== state.latest) {
    $build.set({ ...state, latest: latest.id });
  }
}

/**
 * Whether a navigation to `path` may become a full reload now; records it when so. One reload
 * per path within RELOAD_GUARD_MS.
 */
export function claimReload(path: string, storage: StorageLike | null = session(), now: number = Date.now()): boolean {
  let entries: Record<string, number> = {};
  try {
    const parsed: unknown = JSON.parse(readItem(storage, RELOAD_GUARD_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) entries = parsed as Record<string, number>;
  } catch {
    entries = {};
  }
  const fresh = Object.fromEntries(Object.entries(entries).filter(([, at]) => typeof at === 'number' && now - at < RELOAD_GUARD_MS));
  if (fresh[path] !== undefined) return false;
  fresh[path] = now;
  writeItem(storage, RELOAD_GUARD_KEY, JSON.stringify(fresh));
  return true;
}

/** True when the next navigation to `path` should be a full page load (a newer build is out). */
export function shouldReloadFor(path: string, storage?: StorageLike | null, now?: number): boolean {
  return isOutdated() && claimReload(path, storage, now);
}

/** A chunk of ours (`/_astro/…`) that failed to load. */
export function isChunkFailure(target: EventTarget | null): boolean {
  if (typeof HTMLScriptElement !== 'undefined' && target instanceof HTMLScriptElement) return target.src.includes('/_astro/');
  if (typeof HTMLLinkElement !== 'undefined' && target instanceof HTMLLinkElement)
    return target.href.includes('/_astro/') && /preload|stylesheet/.test(target.rel);
  return false;
}

let started = false;

/** Starts the watcher: the first check, the hourly check, and chunk failures. */
export function startBuildWatcher(win: Window = window): Promise<void> {
  if (started) return Promise.resolve();
  started = true;
  // Vite raises vite:preloadError when a dynamic import's chunk fails; scripts and preloads fail
  // as 'error' events that do not bubble (captured here).
  win.addEventListener('vite:preloadError', () => win.dispatchEvent(new Event(CHUNK_ERROR_EVENT)));
  win.addEventListener(
    'error',
    (event) => {
      if (isChunkFailure(event.target)) win.dispatchEvent(new Event(CHUNK_ERROR_EVENT));
    },
    true,
  );
  win.addEventListener(CHUNK_ERROR_EVENT, () => void checkBuild());
  win.setInterval(() => void checkBuild(), BUILD_CHECK_INTERVAL_MS);
  return checkBuild();
}
