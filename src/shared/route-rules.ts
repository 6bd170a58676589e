/**
 * The redirect rules of docs/product.md §2 and §6 as one pure decision: given where a visitor is going,
 * what we know about them, and where they come from, stay or go elsewhere. The browser's route
 * guard runs it on first load and on every client-side navigation; the server runs it for page
 * requests when it knows the session.
 */
import { relocalize, splitLanguage, type Language } from './languages.ts';
import { isElevated, type Role } from './roles.ts';
import { matchRoute, paramsAreValid } from './routes.ts';

export type AuthState =
  | { status: 'unknown' }
  | { status: 'unauthenticated' }
  /** `secondFactorMissing`: staff who must set up a second way to sign in before the admin area opens (issue 29 §3). */
  | { status: 'authenticated'; role: Role; secondFactorMissing?: boolean };

export type Decision =
  | { action: 'stay' }
  /** The answer depends on the auth state, which is not known yet. */
  | { action: 'wait' }
  | { action: 'redirect'; to: string };

export interface NavigationInput {
  /** The path being opened (no query), with its language prefix if it has one (`/de/account`). */
  path: string;
  /**
   * The language the page must be shown in (`languageFor` of src/shared/languages.ts: a signed-in
   * person's preference, a visitor's choice…). Absent: the path's own. When it differs from the
   * path's, the page is opened again in it; every redirect goes to a page in it.
   */
  language?: Language;
  /** Its query string, with or without the leading `?`. */
  search?: string;
  auth: AuthState;
  /** True while the maintenance flag is on. */
  maintenance?: boolean;
  /** The path the visitor navigated from, when known (client-side navigation, same-site referrer). */
  from?: string | null;
}

export const LOGIN_PATH = '/login';
export const HOME_PATH = '/';
export const MAINTENANCE_PATH = '/maintenance';
/** Where staff without a second factor set one up (issue 29 §3); `r` brings them back to the admin page they opened. */
export const SECOND_FACTOR_SETUP_PATH = '/account/security';

const STAY: Decision = { action: 'stay' };
const redirect = (to: string): Decision => ({ action: 'redirect', to });

/** True for docs/product.md's public routes (/terms, /privacy, /contact, /data-deletion), in any language. */
export function isPublicPath(path: string): boolean {
  return matchRoute(splitLanguage(path).path)?.route.access === 'public';
}

/**
 * A redirect target we may follow: a path on this site, never another origin. Anything else
 * (`//evil.example`, `https://…`, `/\\evil`, control characters) becomes null.
 */
export function safeRedirectPath(target: string | null | undefined): string | null {
  if (!target || target.length > 2048) return null;
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return null;
  // Control characters and backslashes are refused on purpose.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(target)) return null;
  try {
    const url = new URL(target, 'http://fieldwork.invalid');
    if (url.origin !== 'http://fieldwork.invalid') return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/**
 * Where a visitor without a session goes: plain /login from / or a public page, else with `r`
 * (the path as opened, its language prefix included: `/login?r=/de/account`).
 */
export function loginRedirect(path: string, search = '', from?: string | null): string {
  if (splitLanguage(path).path === HOME_PATH || (from && isPublicPath(from))) return LOGIN_PATH;
  const query = search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '';
  // Slashes stay readable (`/login?r=/account/edit`), as they may in a query string.
  return `${LOGIN_PATH}?r=${encodeURIComponent(`${path}${query}`).replace(/%2F/gi, '/')}`;
}

/** The set-up screen for staff without a second factor, with `r` naming the admin page they opened. */
export function secondFactorSetupRedirect(path: string, search = ''): string {
  const query = search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '';
  return `${SECOND_FACTOR_SETUP_PATH}?r=${encodeURIComponent(`${path}${query}`).replace(/%2F/gi, '/')}`;
}

/** Where staff (moderators and admins) land after sign-in when no `r` says otherwise: the admin dashboard. */
export const STAFF_HOME_PATH = '/admin';

/**
 * Where sign-in leads: `r` when it is a same-site path (never back to a guest page), else home —
 * `/` for participants, `/admin` for moderators and admins (`role`: the user who just signed in).
 */
export function afterSignIn(r: string | null | undefined, role?: Role | null): string {
  const home = isElevated(role) ? STAFF_HOME_PATH : HOME_PATH;
  const target = safeRedirectPath(r);
  if (!target) return home;
  const access = matchRoute(splitLanguage(target.split(/[?#]/)[0] ?? '/').path)?.route.access;
  return access === 'guest' || access === 'maintenance' ? home : target;
}

/**
 * The rules on a path in any language: decided on the path without its prefix, then moved to the
 * language the page must be shown in (`input.language`): `/de/account` without a session →
 * `/de/login?r=/de/account`; a page allowed but in another language than wanted → the same page in it.
 */
export function decideNavigation(input: NavigationInput): Decision {
  const { language: pathLanguage, path } = splitLanguage(input.path);
  const wanted = input.language ?? pathLanguage;
  const decision = decideRoute({ ...input, path }, input.path);
  if (decision.action === 'redirect') return redirect(relocalize(decision.to, wanted));
  if (decision.action === 'stay' && wanted !== pathLanguage) {
    const search = input.search && input.search !== '?' ? (input.search.startsWith('?') ? input.search : `?${input.search}`) : '';
    return redirect(relocalize(`${input.path}${search}`, wanted));
  }
  return decision;
}

/** docs/product.md §2's rules on a path without a language prefix (`asOpened`: the path with it, for `r`). */
function decideRoute(input: NavigationInput, asOpened: string): Decision {
  const { path, auth } = input;
  // A URL whose parameters fail their check is not that route: it is the 404 page.
  const match = matchRoute(path);
  const route = match && paramsAreValid(match) ? match.route : undefined;

  // Maintenance first: everything goes to /maintenance while it is on; /maintenance goes home when off.
  if (input.maintenance) return path === MAINTENANCE_PATH ? STAY : redirect(MAINTENANCE_PATH);
  if (path === MAINTENANCE_PATH) return redirect(HOME_PATH);

  // Unknown pages (404, malformed parameters included) and public pages are open to all.
  if (!route || route.access === 'public') return STAY;

  if (route.access === 'guest') {
    if (auth.status === 'unknown') return { action: 'wait' };
    return auth.status === 'authenticated' ? redirect(HOME_PATH) : STAY;
  }

  // Routes needing a session.
  if (auth.status === 'unknown') return { action: 'wait' };
  if (auth.status === 'unauthenticated') return redirect(loginRedirect(asOpened, input.search, input.from));
  if (path.includes('/admin') && !isElevated(auth.role)) return redirect(HOME_PATH);
  if (path.includes('/admin') && auth.secondFactorMissing === true) return redirect(secondFactorSetupRedirect(asOpened, input.search));
  return STAY;
}
