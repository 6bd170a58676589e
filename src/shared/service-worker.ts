/**
 * The service worker's decisions (issue 33 §2, `docs/decisions/038-field-capture.md` "Missions
 * offline"), pure so the worker (src/sw/worker.ts), its registration (src/app/service-worker.ts),
 * the build (builds/service-worker.ts) and the unit tests agree: which pages are a participant's,
 * which requests are kept and under which key, whose copy an API answer is, and when a new worker
 * may take over.
 */
import { directionOf, isLanguage, localizedPath, SOURCE_LANGUAGE, splitLanguage, type Language } from './languages.ts';
import { RECORDING_LOCK, SENDING_LOCK, SERVICE_WORKER_PATH } from './offline.ts';
import { matchRoute, paramsAreValid, shellPath, type RouteDef } from './routes.ts';
import { LATEST_BUILD_FILE } from './static-headers.ts';

/** Every cache of ours starts with this (others on the origin are left alone). */
export const CACHE_PREFIX = 'fieldwork-';
/** A build's pages and hashed files for one language: `fieldwork-precache-{language}-{buildId}`. */
export const PRECACHE_PREFIX = `${CACHE_PREFIX}precache-`;
/** One signed-in participant's copies of the API answers their pages need: `fieldwork-api-user-{id}`. */
export const API_CACHE_PREFIX = `${CACHE_PREFIX}api-user-`;
/** What the page posts to a waiting worker to let it take over (src/app/service-worker.ts). */
export const SKIP_WAITING_MESSAGE = 'fieldwork-skip-waiting';
/** The concrete id the build's precache asks a dynamic participant page with (`/missions/1`: the same shell as every id). */
export const PRECACHE_SAMPLE_ID = '1';

export function precacheName(language: Language, buildId: string): string {
  return `${PRECACHE_PREFIX}${language}-${buildId}`;
}

export function apiCacheName(userId: string | number): string {
  return `${API_CACHE_PREFIX}${encodeURIComponent(String(userId))}`;
}

/** The worker's script for a language: each language's worker precaches that language's pages alone. */
export function serviceWorkerUrl(language: Language): string {
  return `${SERVICE_WORKER_PATH}?lang=${language}`;
}

/** The language a worker was registered for (`?lang=de`), the source language when none or an unknown one. */
export function workerLanguage(search: string): Language {
  const value = new URLSearchParams(search).get('lang');
  return isLanguage(value) ? value : SOURCE_LANGUAGE;
}

/** A participant's page: signed-in, in the default layout (home, surveys, missions, mission groups, the account pages). */
export function isParticipantRoute(route: Pick<RouteDef, 'access' | 'layout'>): boolean {
  return route.access === 'auth' && route.layout === 'default';
}

/** The participant route a path (in any language) opens, or null (staff, guest and public pages, 404s). */
export function participantRouteOf(pathname: string): RouteDef | null {
  const match = matchRoute(splitLanguage(pathname).path);
  return match && paramsAreValid(match) && isParticipantRoute(match.route) ? match.route : null;
}

/**
 * The cache key of a participant page: its shell in its language (`/de/missions/_`), so every
 * mission opened shares the one page, which the islands fill from the API.
 */
export function pageCacheKey(pathname: string): string | null {
  const route = participantRouteOf(pathname);
  return route ? localizedPath(shellPath(route.pattern), splitLanguage(pathname).language) : null;
}

/** The address the build's precache fetches a participant page from: a dynamic route with PRECACHE_SAMPLE_ID. */
export function precachePageUrl(pattern: string, language: Language): string {
  return localizedPath(pattern.replace(/:[A-Za-z]+/g, PRECACHE_SAMPLE_ID), language);
}

/**
 * The participants' GET calls a home, survey, mission or mission group page makes to open (the
 * islands' fetches and the shell's: the current user, the maintenance and banner flags, the points
 * pill, the account's colour mode). Nothing of the admin API, ever.
 */
const PARTICIPANT_API: readonly RegExp[] = [
  /^\/api\/auth$/,
  /^\/api\/home$/,
  /^\/api\/surveys\/[1-9]\d{0,14}$/,
  /^\/api\/missions\/[1-9]\d{0,14}$/,
  /^\/api\/mission-groups\/[1-9]\d{0,14}$/,
  /^\/api\/account$/,
  /^\/api\/account\/points$/,
  /^\/api\/account\/mission-history\/[1-9]\d{0,14}$/,
  /^\/api\/feature-flags$/,
];

/** True for a GET whose answer is kept, per participant, for offline use. */
export function isParticipantApi(pathname: string): boolean {
  return PARTICIPANT_API.some((pattern) => pattern.test(pathname));
}

/**
 * Calls that may change who is signed in on this browser (sign-in, registration, onboarding, the
 * second step, sign-out, the account's deletion, sessions ended): every participant's copies are
 * removed when one is made.
 */
export function changesWhoIsSignedIn(method: string, pathname: string): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  return pathname.startsWith('/api/auth/') || pathname === '/api/account' || pathname.startsWith('/api/account/sessions');
}

export interface SwRequest {
  readonly method: string;
  readonly url: URL;
  /** The worker's origin. */
  readonly origin: string;
  /** `navigate` for a page load. */
  readonly mode: string;
  /** The request's Accept header ('' when none): the client router asks for pages with text/html. */
  readonly accept: string;
}

export type SwAction =
  /** Not the worker's: the browser goes to the network as if there were none. */
  | { kind: 'pass' }
  /** A participant's page: the network first, the cached page (`key`) offline, else the offline page. */
  | { kind: 'participant-page'; key: string; language: Language }
  /** Any other page (staff, guest, public): the network only; offline, the offline page. Never cached. */
  | { kind: 'page'; language: Language }
  /** A hashed file of the build (or its meta): the cache first, then the network. */
  | { kind: 'asset' }
  /** A participant's GET call: the network first, the signed-in participant's copy offline. */
  | { kind: 'participant-api' }
  /** A call that may change who is signed in: sent, then every participant's copies removed. */
  | { kind: 'auth-change' };

const PASS: SwAction = { kind: 'pass' };

/** What the worker does with a request. */
export function decideRequest(request: SwRequest): SwAction {
  const { url } = request;
  if (url.origin !== request.origin) return PASS;
  const pathname = url.pathname;
  if (request.method !== 'GET') return changesWhoIsSignedIn(request.method, pathname) ? { kind: 'auth-change' } : PASS;
  if (pathname === SERVICE_WORKER_PATH || pathname === `/${LATEST_BUILD_FILE}`) return PASS;
  if (pathname.startsWith('/api/') || pathname === '/api') return isParticipantApi(pathname) ? { kind: 'participant-api' } : PASS;
  if (pathname.startsWith('/_astro/') || pathname.startsWith('/builds/meta/')) return { kind: 'asset' };
  const isPage = request.mode === 'navigate' || request.accept.includes('text/html');
  if (!isPage) return PASS;
  const language = splitLanguage(pathname).language;
  const key = pageCacheKey(pathname);
  return key ? { kind: 'participant-page', key, language } : { kind: 'page', language };
}

/**
 * Whose copies a `GET /api/auth` answer says to keep: the user's id when signed in, null when
 * nobody is (401: every copy goes), undefined when it says nothing (an error: nothing changes).
 */
export function signedInUserOf(status: number, body: unknown): string | null | undefined {
  if (status === 401) return null;
  if (status !== 200 || !body || typeof body !== 'object') return undefined;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : undefined;
}

/** The participant caches (of `names`) that are not `userId`'s: removed when another person signs in. */
export function otherUsersCaches(names: readonly string[], userId: string | null): string[] {
  const keep = userId === null ? null : apiCacheName(userId);
  return names.filter((name) => name.startsWith(API_CACHE_PREFIX) && name !== keep);
}

/** The previous builds' precaches (of `names`), removed once the worker of `current` is active. */
export function outdatedPrecaches(names: readonly string[], current: string): string[] {
  return names.filter((name) => name.startsWith(PRECACHE_PREFIX) && name !== current);
}

/** A new worker may take over only while nothing is being sent or recorded (the held Web Locks' names). */
export function mayActivate(heldLocks: readonly (string | undefined)[]): boolean {
  return !heldLocks.some((name) => name === SENDING_LOCK || name === RECORDING_LOCK);
}

/** Where the offline page's words are: keys of messages/shell/{language}.json, read by the build (builds/service-worker.ts). */
export const OFFLINE_MESSAGE_KEYS = { title: 'shell_offline_title', text: 'shell_offline_text', retry: 'shell_common_try_again' } as const;

/** The offline page's words in one language (OFFLINE_MESSAGE_KEYS). */
export interface OfflineTexts {
  title: string;
  text: string;
  retry: string;
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

/** The small page a navigation gets offline when nothing is kept for it (503), in the interface language. */
export function offlinePageHtml(language: Language, texts: OfflineTexts): string {
  const dir = directionOf(language) === 'rtl' ? ' dir="rtl"' : '';
  return (
    `<!doctype html><html lang="${language}"${dir}><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(texts.title)} · Fieldwork</title>` +
    '<style>body{font-family:system-ui,sans-serif;line-height:1.5;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#0f172a;background:#f8fafc}' +
    '@media (prefers-color-scheme:dark){body{color:#e2e8f0;background:#0e131c}a{color:#93c5fd}}</style></head>' +
    `<body><main><h1>${escapeHtml(texts.title)}</h1><p>${escapeHtml(texts.text)}</p><p><a href="">${escapeHtml(texts.retry)}</a></p></main></body></html>`
  );
}

/** The offline page's own CSP: no script at all. */
export const OFFLINE_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
