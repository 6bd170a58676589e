/**
 * Every page route of docs/product.md §2, in one table shared by the browser, the build and the server.
 *
 * - `access` says who may see the page (the redirect rules are applied from it).
 * - `layout` is the layout the page renders in.
 * - `params` constrain the dynamic segments: a URL whose parameter fails its check is a 404
 *   ("Page Not Found"), answered by the server and by the client alike.
 *
 * A dynamic route is prerendered once, as a shell, with every parameter set to SHELL_PARAM; the
 * build writes the route table (pattern → shell file) that the Node server and static hosts use
 * to serve that shell at every matching URL.
 */

export type Access = 'guest' | 'public' | 'maintenance' | 'auth' | 'admin';
export type Layout = 'default' | 'auth' | 'admin' | 'formbuilder';
export type ParamKind = 'id' | 'token';

export interface RouteDef {
  /** URL pattern, `:name` for a dynamic segment. */
  readonly pattern: string;
  readonly access: Access;
  readonly layout: Layout;
  readonly title: string;
  readonly params?: Readonly<Record<string, ParamKind>>;
}

/** The value every dynamic segment takes in the prerendered shell. */
export const SHELL_PARAM = '_';

/** What a parameter of each kind must look like. */
export const PARAM_PATTERNS: Readonly<Record<ParamKind, RegExp>> = {
  // Positive integers without leading zeros, at most 15 digits (safe in JS and in bigint).
  id: /^[1-9][0-9]{0,14}$/,
  // Link tokens are base64url; generous bounds so a malformed one is still a clear 404.
  token: /^[A-Za-z0-9_-]{16,256}$/,
};

export const ROUTES = [
  // Guest-only (an authenticated user is redirected to /).
  { pattern: '/login', access: 'guest', layout: 'auth', title: 'Sign in' },
  { pattern: '/register', access: 'guest', layout: 'auth', title: 'Create your account' },
  { pattern: '/forgot-password', access: 'guest', layout: 'auth', title: 'Forgot password' },
  { pattern: '/onboarding/:token', access: 'guest', layout: 'auth', title: 'Welcome to Fieldwork', params: { token: 'token' } },
  { pattern: '/reset-password/:token', access: 'guest', layout: 'auth', title: 'Choose a new password', params: { token: 'token' } },

  // Public (open to all, exempt from redirects).
  { pattern: '/terms', access: 'public', layout: 'default', title: 'Terms of use' },
  { pattern: '/privacy', access: 'public', layout: 'default', title: 'Privacy policy' },
  { pattern: '/contact', access: 'public', layout: 'default', title: 'Contact us' },
  { pattern: '/data-deletion', access: 'public', layout: 'default', title: 'Data deletion' },

  // Maintenance.
  { pattern: '/maintenance', access: 'maintenance', layout: 'auth', title: 'Down for maintenance' },

  // Authentication needed.
  { pattern: '/', access: 'auth', layout: 'default', title: 'Home' },
  { pattern: '/update-email/:token', access: 'auth', layout: 'auth', title: 'Confirm your new email', params: { token: 'token' } },
  { pattern: '/surveys/:id', access: 'auth', layout: 'default', title: 'Survey', params: { id: 'id' } },
  { pattern: '/missions/:id', access: 'auth', layout: 'default', title: 'Mission', params: { id: 'id' } },
  { pattern: '/mission-groups/:id', access: 'auth', layout: 'default', title: 'Mission group', params: { id: 'id' } },
  { pattern: '/account', access: 'auth', layout: 'default', title: 'Your account' },
  { pattern: '/account/edit', access: 'auth', layout: 'default', title: 'Edit your account' },
  { pattern: '/account/edit/address', access: 'auth', layout: 'default', title: 'Your address' },
  { pattern: '/account/edit/profile', access: 'auth', layout: 'default', title: 'Your profile' },
  { pattern: '/account/edit/preferences', access: 'auth', layout: 'default', title: 'Your preferences' },
  { pattern: '/account/security', access: 'auth', layout: 'default', title: 'Account security' },
  { pattern: '/account/rewards', access: 'auth', layout: 'default', title: 'Rewards' },
  { pattern: '/account/mission-history', access: 'auth', layout: 'default', title: 'Mission history' },
  { pattern: '/account/mission-history/:missionId', access: 'auth', layout: 'default', title: 'Mission history', params: { missionId: 'id' } },

  // Admin area (moderator or admin only).
  { pattern: '/admin', access: 'admin', layout: 'admin', title: 'Dashboard' },
  { pattern: '/admin/gallery', access: 'admin', layout: 'admin', title: 'Gallery' },
  { pattern: '/admin/forms', access: 'admin', layout: 'admin', title: 'Forms' },
  { pattern: '/admin/forms/:id', access: 'admin', layout: 'formbuilder', title: 'Form builder', params: { id: 'id' } },
  { pattern: '/admin/users', access: 'admin', layout: 'admin', title: 'Users' },
  { pattern: '/admin/users/:userId', access: 'admin', layout: 'admin', title: 'User', params: { userId: 'id' } },
  { pattern: '/admin/tools', access: 'admin', layout: 'admin', title: 'Tools' },
  { pattern: '/admin/tools/points-bulk-update', access: 'admin', layout: 'admin', title: 'Points bulk update' },
  { pattern: '/admin/tools/alchemer-export-append', access: 'admin', layout: 'admin', title: 'Alchemer export append' },
  { pattern: '/admin/tools/export-reviews-unilever', access: 'admin', layout: 'admin', title: 'Export reviews (Unilever)' },
  // Not in docs/product.md: the admin tools screen for client error reports (docs/architecture.md, "Domain").
  { pattern: '/admin/tools/client-errors', access: 'admin', layout: 'admin', title: 'Client errors' },
  // Not in docs/product.md's table either (its "Our addition", issue 29 §7): the audit log, for admins (the API refuses moderators).
  { pattern: '/admin/audit', access: 'admin', layout: 'admin', title: 'Audit log' },
  // Issue 32 (docs/product.md's "Our addition"): outgoing webhooks, API tokens and the API reference, for admins (the API refuses moderators).
  { pattern: '/admin/integrations', access: 'admin', layout: 'admin', title: 'Integrations' },
  { pattern: '/admin/integrations/tokens', access: 'admin', layout: 'admin', title: 'API tokens' },
  { pattern: '/admin/integrations/docs', access: 'admin', layout: 'admin', title: 'API reference' },
  // Rewards (issue 30 §2, §4): the catalogue and settings, and the fulfilment queue.
  { pattern: '/admin/rewards', access: 'admin', layout: 'admin', title: 'Rewards' },
  { pattern: '/admin/rewards/redemptions', access: 'admin', layout: 'admin', title: 'Reward requests' },
  // Not in docs/product.md's table either (its "Our addition"): the review inbox across projects, and the projects' own list.
  { pattern: '/admin/review', access: 'admin', layout: 'admin', title: 'Review' },
  { pattern: '/admin/projects', access: 'admin', layout: 'admin', title: 'Projects' },
  { pattern: '/admin/projects/:projectId', access: 'admin', layout: 'admin', title: 'Project', params: { projectId: 'id' } },
  { pattern: '/admin/projects/:projectId/surveys/new', access: 'admin', layout: 'admin', title: 'New survey', params: { projectId: 'id' } },
  { pattern: '/admin/projects/:projectId/surveys/:surveyId', access: 'admin', layout: 'admin', title: 'Survey', params: { projectId: 'id', surveyId: 'id' } },
  {
    pattern: '/admin/projects/:projectId/surveys/:surveyId/edit',
    access: 'admin',
    layout: 'formbuilder',
    title: 'Edit survey',
    params: { projectId: 'id', surveyId: 'id' },
  },
  { pattern: '/admin/projects/:projectId/missions/new', access: 'admin', layout: 'admin', title: 'New mission', params: { projectId: 'id' } },
  {
    pattern: '/admin/projects/:projectId/missions/:missionId',
    access: 'admin',
    layout: 'admin',
    title: 'Mission',
    params: { projectId: 'id', missionId: 'id' },
  },
  {
    pattern: '/admin/projects/:projectId/missions/:missionId/edit',
    access: 'admin',
    layout: 'formbuilder',
    title: 'Edit mission',
    params: { projectId: 'id', missionId: 'id' },
  },
] as const satisfies readonly RouteDef[];

export type RoutePattern = (typeof ROUTES)[number]['pattern'];

export interface RouteMatch {
  readonly route: RouteDef;
  readonly params: Readonly<Record<string, string>>;
}

/** Splits a pathname into its segments, ignoring a trailing slash. */
function segmentsOf(pathname: string): string[] {
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  return trimmed.split('/').slice(1);
}

function matchOne(route: RouteDef, segments: readonly string[]): RouteMatch | null {
  const parts = segmentsOf(route.pattern);
  if (route.pattern === '/') return segments.length === 1 && segments[0] === '' ? { route, params: {} } : null;
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const segment = segments[i] as string;
    if (part.startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(segment);
      } catch {
        return null;
      }
      if (value === '') return null;
      params[part.slice(1)] = value;
    } else if (part !== segment) {
      return null;
    }
  }
  return { route, params };
}

/** Static segments outrank dynamic ones, so `/surveys/new` never reads as `/surveys/:surveyId`. */
function specificity(route: RouteDef): number {
  return segmentsOf(route.pattern).reduce((score, part) => score * 2 + (part.startsWith(':') ? 0 : 1), 1);
}

const BY_SPECIFICITY: readonly RouteDef[] = [...ROUTES].sort((a, b) => specificity(b) - specificity(a));

/**
 * Finds the route a pathname belongs to, without checking parameter values: a match whose
 * parameters fail their check is still that route (see `paramsAreValid`).
 */
export function matchRoute(pathname: string): RouteMatch | null {
  const segments = segmentsOf(pathname);
  for (const route of BY_SPECIFICITY) {
    const match = matchOne(route, segments);
    if (match) return match;
  }
  return null;
}

/** True when every parameter of a match passes the check of its kind. */
export function paramsAreValid(match: RouteMatch): boolean {
  const kinds = match.route.params ?? {};
  return Object.entries(kinds).every(([name, kind]) => PARAM_PATTERNS[kind].test(match.params[name] ?? ''));
}

/** The URL of a route's prerendered shell: its pattern with every parameter set to SHELL_PARAM. */
export function shellPath(pattern: string): string {
  return pattern.replace(/:[A-Za-z]+/g, SHELL_PARAM);
}

/** Fills a pattern's parameters, encoding each value. */
export function buildPath(pattern: RoutePattern, params: Readonly<Record<string, string | number>> = {}): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing route parameter "${name}" for ${pattern}`);
    return encodeURIComponent(String(value));
  });
}
