import type { RouteRule } from '../src/shared/build-manifest.ts';

/** Route rules (docs/product.md §2: a server-provided redirect for a path), applied by the Node server and the browser's guard. */
export const ROUTE_RULES: Record<string, RouteRule> = {
  // docs/product.md: no screen of its own; the participant's missions are listed on /account.
  '/account/mission-history': { redirect: { to: '/account#mission-history', statusCode: 302 } },
};
