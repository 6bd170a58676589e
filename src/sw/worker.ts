/**
 * Fieldwork's service worker (`/sw.js?lang=xx`, issue 33 §2; `docs/decisions/038-field-capture.md`
 * "Missions offline"). Bundled by builds/service-worker.ts after the build, which fills
 * `__FIELDWORK_SW__` with the build id, each language's precache list and the offline page's words.
 *
 * - Install: the build's hashed files a participant's pages load (their language's), and those
 *   pages, into `fieldwork-precache-{language}-{buildId}`. It then waits: the page lets it take
 *   over (SKIP_WAITING_MESSAGE) when nothing is being sent or recorded (src/app/service-worker.ts).
 * - Activate: the older precaches are removed (not before: until then the old worker serves the
 *   old hashed files to the pages that load them).
 * - Fetch: src/shared/service-worker.ts `decideRequest` says what; non-GET calls are never kept
 *   (the outbox queues them), staff pages and calls never touched.
 */
import { inParallel } from '../shared/in-parallel.ts';
import type { Language } from '../shared/languages.ts';
import { REACHABILITY_HEADER } from '../shared/offline.ts';
import {
  API_CACHE_PREFIX,
  apiCacheName,
  decideRequest,
  OFFLINE_PAGE_CSP,
  offlinePageHtml,
  otherUsersCaches,
  outdatedPrecaches,
  precacheName,
  SKIP_WAITING_MESSAGE,
  signedInUserOf,
  workerLanguage,
  type OfflineTexts,
} from '../shared/service-worker.ts';

/** What builds/service-worker.ts puts in the bundle. */
export interface WorkerConfig {
  buildId: string;
  precache: Record<Language, { assets: string[]; pages: { url: string; key: string }[] }>;
  offline: Record<Language, OfflineTexts>;
}

declare const __FIELDWORK_SW__: WorkerConfig;

// The worker's own types (the project's TypeScript library is the DOM's, not the WebWorker one).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  readonly data: unknown;
}
interface WorkerScope {
  readonly location: Location;
  skipWaiting(): Promise<void>;
  readonly clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
}

const scope = self as unknown as WorkerScope;
const config = __FIELDWORK_SW__;
const language = workerLanguage(scope.location.search);
const PRECACHE = precacheName(language, config.buildId);
const manifest = config.precache[language];

/**
 * Bumped when a call that may change who is signed in starts and ends: an API answer asked for
 * before is not kept (it may be the previous person's).
 */
let authEpoch = 0;

/**
 * Files fetched at a time while installing: a phone's first visit (and its server) should not meet
 * a burst of some 150 requests while the page that registered the worker is still starting.
 */
const PRECACHE_PARALLEL = 4;

async function precache(): Promise<void> {
  const cache = await caches.open(PRECACHE);
  // Hashed files never change: one kept by the previous build's precache is copied, not fetched again.
  await inParallel(manifest.assets, PRECACHE_PARALLEL, async (url) => {
    const kept = await caches.match(url);
    if (kept) return cache.put(url, kept);
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    return cache.put(url, response);
  });
  // Pages: as the signed-in participant gets them; one that fails (signed out, offline) is kept at its first visit.
  await inParallel(manifest.pages, PRECACHE_PARALLEL, async ({ url, key }) => {
    try {
      const response = await fetch(url, { credentials: 'same-origin', cache: 'no-cache' });
      if (response.ok && !response.redirected) await cache.put(key, response);
    } catch {
      // Kept when visited.
    }
  });
}

scope.addEventListener('install', (event) => event.waitUntil(precache()));

scope.addEventListener('activate', (event) =>
  event.waitUntil(
    (async () => {
      await Promise.all(outdatedPrecaches(await caches.keys(), PRECACHE).map((name) => caches.delete(name)));
      await scope.clients.claim();
    })(),
  ),
);

scope.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown } | null;
  if (data?.type === SKIP_WAITING_MESSAGE) event.waitUntil(scope.skipWaiting());
});

function offlinePage(pageLanguage: Language): Response {
  return new Response(offlinePageHtml(pageLanguage, config.offline[pageLanguage]), {
    status: 503,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Security-Policy': OFFLINE_PAGE_CSP },
  });
}

const isHtml = (response: Response): boolean => (response.headers.get('content-type') ?? '').startsWith('text/html');

async function participantPage(event: FetchEvent, key: string, pageLanguage: Language): Promise<Response> {
  try {
    const response = await fetch(event.request);
    // A redirect (to /login, to another language) is not the page: only the page itself is kept.
    if (response.status === 200 && response.type === 'basic' && !response.redirected && isHtml(response)) {
      const copy = response.clone();
      event.waitUntil(caches.open(PRECACHE).then((cache) => cache.put(key, copy)));
    }
    return response;
  } catch {
    return (await caches.match(key, { cacheName: PRECACHE })) ?? offlinePage(pageLanguage);
  }
}

async function otherPage(event: FetchEvent, pageLanguage: Language): Promise<Response> {
  try {
    return await fetch(event.request);
  } catch {
    return offlinePage(pageLanguage);
  }
}

async function asset(event: FetchEvent): Promise<Response> {
  const kept = await caches.match(event.request);
  if (kept) return kept;
  const response = await fetch(event.request);
  // A newer build's file a page loaded before this worker took over: kept for the next time offline.
  if (response.status === 200 && response.type === 'basic') {
    const copy = response.clone();
    event.waitUntil(caches.open(PRECACHE).then((cache) => cache.put(event.request, copy)));
  }
  return response;
}

async function apiCaches(): Promise<string[]> {
  return (await caches.keys()).filter((name) => name.startsWith(API_CACHE_PREFIX));
}

async function forgetEveryone(): Promise<void> {
  await Promise.all((await apiCaches()).map((name) => caches.delete(name)));
}

/** After `GET /api/auth`: its answer names whose copies are kept (another person's are removed; 401: everyone's). */
async function rememberSignedIn(request: Request, response: Response, epoch: number): Promise<void> {
  const user = signedInUserOf(
    response.status,
    await response
      .clone()
      .json()
      .catch(() => null),
  );
  if (user === undefined || epoch !== authEpoch) return;
  await Promise.all(otherUsersCaches(await caches.keys(), user).map((name) => caches.delete(name)));
  if (user === null || epoch !== authEpoch) return;
  await (await caches.open(apiCacheName(user))).put(request, response);
}

let learning: Promise<void> | null = null;

/** Asks `GET /api/auth` whose session this is, when no copy names anyone yet (once at a time). */
function learnWhoIsSignedIn(epoch: number): Promise<void> {
  learning ??= (async () => {
    try {
      const request = new Request(new URL('/api/auth', scope.location.origin), { credentials: 'same-origin', headers: { Accept: 'application/json' } });
      await rememberSignedIn(request, await fetch(request), epoch);
    } catch {
      // Offline or refused: the next answer tries again.
    } finally {
      learning = null;
    }
  })();
  return learning;
}

/** Keeps an API answer as the signed-in participant's copy: the person `GET /api/auth` names, never anyone else. */
async function remember(request: Request, response: Response, epoch: number): Promise<void> {
  if (epoch !== authEpoch) return;
  if (new URL(request.url).pathname === '/api/auth') return rememberSignedIn(request, response, epoch);
  if (response.status === 401) return forgetEveryone();
  if (response.status !== 200) return;
  let owners = await apiCaches();
  if (owners.length === 0) {
    await learnWhoIsSignedIn(epoch);
    owners = await apiCaches();
  }
  if (owners.length !== 1 || epoch !== authEpoch) return;
  await (await caches.open(owners[0] as string)).put(request, response);
}

async function participantApi(event: FetchEvent): Promise<Response> {
  const epoch = authEpoch;
  try {
    const response = await fetch(event.request);
    if (response.type === 'basic') event.waitUntil(remember(event.request, response.clone(), epoch).catch(() => undefined));
    return response;
  } catch (error) {
    // The outbox asking whether the API can be reached: a kept copy would say yes.
    if (event.request.headers.has(REACHABILITY_HEADER)) throw error;
    const owners = await apiCaches();
    const kept = owners.length === 1 ? await (await caches.open(owners[0] as string)).match(event.request, { ignoreVary: true }) : undefined;
    if (kept) return kept;
    throw error;
  }
}

function authChange(event: FetchEvent): void {
  authEpoch += 1;
  const sent = fetch(event.request);
  event.respondWith(sent);
  const settle = async (): Promise<void> => {
    authEpoch += 1;
    await forgetEveryone();
  };
  event.waitUntil(sent.then(settle, settle));
}

scope.addEventListener('fetch', (event) => {
  const request = event.request;
  const action = decideRequest({
    method: request.method,
    url: new URL(request.url),
    origin: scope.location.origin,
    mode: request.mode,
    accept: request.headers.get('accept') ?? '',
  });
  switch (action.kind) {
    case 'pass':
      return;
    case 'participant-page':
      return event.respondWith(participantPage(event, action.key, action.language));
    case 'page':
      return event.respondWith(otherPage(event, action.language));
    case 'asset':
      return event.respondWith(asset(event));
    case 'participant-api':
      return event.respondWith(participantApi(event));
    case 'auth-change':
      return authChange(event);
  }
});
