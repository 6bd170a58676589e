/**
 * The route rules of builds/meta/{id}.json (docs/architecture.md "Build manifests"): the rule for a
 * path — exact paths first, then `:param` / `*` patterns, then the longest wildcard prefix. The
 * browser's guard applies them on every navigation and the Node server to every page request.
 */
import { relocalize, splitLanguage } from './languages.ts';
import type { BuildMeta, RouteRule } from './build-manifest.ts';

function normalise(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function patternMatches(pattern: string, path: string): boolean {
  const parts = normalise(pattern).split('/');
  const segments = normalise(path).split('/');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (part === '**') return true;
    if (i >= segments.length) return false;
    if (part === '*' || part.startsWith(':')) {
      if ((segments[i] ?? '') === '') return false;
      continue;
    }
    if (part !== segments[i]) return false;
  }
  return parts.length === segments.length;
}

export function findRouteRule(matcher: BuildMeta['matcher'] | null | undefined, rawPath: string): RouteRule | null {
  if (!matcher) return null;
  const path = normalise(rawPath);
  const exact = matcher.static[path];
  if (exact) return exact;
  for (const [pattern, rule] of Object.entries(matcher.dynamic)) if (patternMatches(pattern, path)) return rule;
  let best: { length: number; rule: RouteRule } | null = null;
  for (const [prefix, rule] of Object.entries(matcher.wildcard)) {
    const base = normalise(prefix);
    const within = base === '/' || path === base || path.startsWith(`${base}/`);
    if (within && (!best || base.length > best.length)) best = { length: base.length, rule };
  }
  return best?.rule ?? null;
}

export type RuleRedirect = { kind: 'internal'; to: string } | { kind: 'external'; to: string };

/** Where a path's redirect rule sends it: absolute URLs on another origin are external. */
export function ruleRedirect(matcher: BuildMeta['matcher'] | null | undefined, openedPath: string, origin: string): RuleRedirect | null {
  // Rules name paths without a language prefix; a same-site target stays in the path's language (issue 31).
  const { language, path } = splitLanguage(openedPath);
  const target = findRouteRule(matcher, path)?.redirect?.to;
  if (!target) return null;
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return { kind: 'external', to: url.href };
  const to = relocalize(`${url.pathname}${url.search}${url.hash}`, language);
  return normalise(url.pathname) === normalise(path) ? null : { kind: 'internal', to };
}
