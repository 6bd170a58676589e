/** The public feature flags (docs/api.md): `banner` and `maintenance`, read fresh every time. */
import { apiGet, withQuery } from '../platform/api.ts';

export type PublicFlag = 'banner' | 'maintenance';

/** The flag's JSON value, or null when unset or when the call fails. */
export async function fetchFlag(feature: PublicFlag): Promise<unknown> {
  try {
    return await apiGet<unknown>(withQuery('/api/feature-flags', { feature }));
  } catch {
    return null;
  }
}

/** Whether maintenance is on; a failed call counts as off (the server still redirects page loads). */
export async function fetchMaintenance(): Promise<boolean> {
  return Boolean(await fetchFlag('maintenance'));
}

/** A value that is fetched again only after `ttlMs` (the banner: at most once a minute). */
export function throttled<T>(load: () => Promise<T>, ttlMs: number, now: () => number = Date.now): (force?: boolean) => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return (force = false) => {
    const time = now();
    if (!force && last && time - last.at < ttlMs) return last.value;
    last = { at: time, value: load() };
    return last.value;
  };
}
