/**
 * Helpers for the files in src/pages: each page names its route by pattern and gets
 * everything else (title, layout, access, parameter kinds) from the route table.
 */
import { ROUTES, SHELL_PARAM, type RouteDef, type RoutePattern } from '../shared/routes.ts';

/** The route-table entry of a pattern. Throws at build time if the pattern is not in the table. */
export function routeFor(pattern: RoutePattern): RouteDef {
  const route = ROUTES.find((candidate) => candidate.pattern === pattern);
  if (!route) throw new Error(`No route "${pattern}" in src/shared/routes.ts`);
  return route;
}

/** The names of a pattern's dynamic segments, in order. */
export function paramNames(pattern: string): string[] {
  return [...pattern.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] as string);
}

/**
 * `getStaticPaths()` for a dynamic route: one shell, every parameter set to SHELL_PARAM.
 *
 *   export const getStaticPaths = () => shellStaticPaths('/surveys/:id');
 */
export function shellStaticPaths(pattern: RoutePattern): { params: Record<string, string> }[] {
  const params = Object.fromEntries(paramNames(routeFor(pattern).pattern).map((name) => [name, SHELL_PARAM]));
  return [{ params }];
}

/**
 * The route one level up from a pattern (the first ancestor path that is in the route table),
 * e.g. `/admin/projects/:projectId/surveys/:surveyId/edit` → `.../surveys/:surveyId`.
 */
export function parentRoute(pattern: string): RouteDef | null {
  let path = pattern;
  while (path.lastIndexOf('/') > 0) {
    path = path.slice(0, path.lastIndexOf('/'));
    const route = ROUTES.find((candidate) => candidate.pattern === path);
    if (route) return route;
  }
  return pattern === '/' ? null : (ROUTES.find((candidate) => candidate.pattern === '/') ?? null);
}

/** The nearest ancestor route without parameters: a link target that needs no URL values. */
export function staticAncestor(pattern: string): RouteDef | null {
  let route = parentRoute(pattern);
  while (route?.params) route = parentRoute(route.pattern);
  return route;
}

/** What every page layout takes (RouteLayout gives the route's title); the admin and form builder layouts add the route pattern. */
export interface LayoutProps {
  title: string;
  description?: string;
  /** Render the page title as the <h1> (default true); pages with their own heading turn it off. */
  showHeading?: boolean;
}
