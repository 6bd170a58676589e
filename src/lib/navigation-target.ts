/** The checks of docs/product.md §8 on a navigation target (pure; src/lib/navigation.ts navigates). */
export const DISALLOWED_PROTOCOLS = new Set(['javascript:', 'data:', 'vbscript:']);

export interface NavigateOptions {
  /** Allow a URL on another origin. */
  external?: boolean;
  /** Replace the current history entry. */
  replace?: boolean;
}

export type NavigationTarget = { kind: 'internal'; url: URL } | { kind: 'external'; url: URL };

/** Classifies a target or throws the docs/product.md §8 navigation error. */
export function resolveNavigation(target: string, options: NavigateOptions = {}, base: string = location.href): NavigationTarget {
  const trimmed = target.trim();
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    throw new Error(`Cannot navigate to an invalid URL: ${trimmed.slice(0, 200)}`);
  }
  if (DISALLOWED_PROTOCOLS.has(url.protocol)) throw new Error(`Cannot navigate to a ${url.protocol} URL`);
  const origin = new URL(base).origin;
  if (url.origin === origin) return { kind: 'internal', url };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`Cannot navigate to a ${url.protocol} URL`);
  if (!options.external) throw new Error(`Navigating to an external URL is not allowed without { external: true }: ${url.origin}`);
  return { kind: 'external', url };
}
