/**
 * Prerendered page payloads (docs/architecture.md "Build manifests"): `<page>/_payload.json` for the
 * pages listed in the build meta's `prerendered`, fetched once and kept PAYLOAD_CACHE_MS (1 h).
 */
import type { PagePayload } from '../shared/build-manifest.ts';
import { PAYLOAD_CACHE_MS } from '../shared/ui-constants.ts';
import { localizedPath, splitLanguage } from '../shared/languages.ts';
import { matchRoute, shellPath } from '../shared/routes.ts';
import { $build } from '../stores/build.ts';

/** The path whose payload serves a URL path: dynamic routes share their shell's. */
export function payloadPagePath(path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  // Each language's pages have their own payloads: `/de/surveys/42` is served by `/de/surveys/_`.
  const { language, path: unprefixed } = splitLanguage(trimmed);
  const match = matchRoute(unprefixed);
  if (match?.route.params) return localizedPath(shellPath(match.route.pattern), language);
  return trimmed;
}

export function payloadUrl(pagePath: string): string {
  return pagePath === '/' ? '/_payload.json' : `${pagePath}/_payload.json`;
}

export interface PayloadCacheDeps {
  fetch?: typeof fetch;
  now?: () => number;
  /** The prerendered list of the running build's meta (null while unknown: then every page is tried). */
  prerendered?: () => readonly string[] | null;
  ttlMs?: number;
}

export function createPayloadCache(deps: PayloadCacheDeps = {}) {
  const doFetch = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const now = deps.now ?? Date.now;
  const ttl = deps.ttlMs ?? PAYLOAD_CACHE_MS;
  const cache = new Map<string, { at: number; value: Promise<PagePayload | null> }>();

  return {
    /** The payload of a page, or null when it has none (or it could not be loaded). */
    get(path: string): Promise<PagePayload | null> {
      const page = payloadPagePath(path);
      const list = deps.prerendered?.() ?? null;
      if (list && !list.includes(page)) return Promise.resolve(null);
      const hit = cache.get(page);
      if (hit && now() - hit.at < ttl) return hit.value;
      const value = doFetch(payloadUrl(page), { credentials: 'same-origin' })
        .then(async (response) => (response.ok ? ((await response.json()) as PagePayload) : null))
        .catch(() => null)
        .then((payload) => {
          if (payload === null) cache.delete(page);
          return payload;
        });
      cache.set(page, { at: now(), value });
      return value;
    },
    clear(): void {
      cache.clear();
    },
  };
}

let shared: ReturnType<typeof createPayloadCache> | null = null;

/** The payload of a page through the page's cache, limited to the running build's prerendered pages. */
export function getPayload(path: string): Promise<PagePayload | null> {
  shared ??= createPayloadCache({ prerendered: () => $build.get().meta?.prerendered ?? null });
  return shared.get(path);
}
