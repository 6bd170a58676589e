/**
 * The route guard: docs/product.md §2's redirect rules (`decideNavigation`, the same function the server
 * runs for page requests), applied on the first load and on every client-side navigation.
 *
 * - Pages that are not public are built with `<html data-guard="pending">` (BaseLayout), and
 *   CSS hides their <main> until the guard lets the visitor stay: no flash of protected content
 *   on a static host. The Node server applies the same rules to every page request before any
 *   JavaScript runs, so it serves the pages it let through without the mark: they show at first
 *   paint, and this guard only corrects a state that went stale (src/server/static.ts).
 * - First load: the current user is loaded (once per full page load), then the page is decided.
 * - Client-side navigation: decided before the next page is fetched (the target is rewritten, so
 *   history records where the visitor really went); back/forward is decided once it has arrived.
 * - The maintenance flag is read fresh for every decision (GET /api/feature-flags), so switching
 *   it reaches open pages at their next navigation; going to /maintenance or leaving it is a full
 *   page load (the server answers those pages itself).
 * - The running build's route rules (builds/meta/{id}.json) redirect first: internal targets
 *   through the router, absolute external ones with a full page load.
 * - A newer build makes the next navigation a full page load (build-watcher.ts).
 * - A URL whose parameters fail their check shows the not-found page (static hosts serve the
 *   route's shell for it; the Node server already answers 404).
 *
 * Started once per full page load by the shell (src/app/shell.ts, from BaseLayout's module script).
 */
import { navigate, type TransitionBeforePreparationEvent } from 'astro:transitions/client';
import { MAINTENANCE_PATH, decideNavigation, type AuthState, type Decision } from '../shared/route-rules.ts';
import { matchRoute, paramsAreValid } from '../shared/routes.ts';
import { $auth, authReady, loadCurrentUser, type AuthStoreState } from '../stores/auth.ts';
import { $build } from '../stores/build.ts';
import { shouldReloadFor, startBuildWatcher } from './build-watcher.ts';
import { fetchMaintenance } from './feature-flags.ts';
import { navigateTo } from '../lib/navigation.ts';
import { ruleRedirect } from '../shared/build-route-rules.ts';
import { discardEarlyResponses, EARLY_SHELL_PATHS } from '../platform/early.ts';
import {
  firstLanguageOf,
  languageCookie,
  languageFor,
  relocalize,
  rememberedLanguage,
  splitLanguage,
  SOURCE_LANGUAGE,
  type Language,
} from '../shared/languages.ts';

const root = document.documentElement;
/** How long a decision waits for the build meta (route rules) before going on without it. */
const META_WAIT_MS = 3000;

function ruleAuth(state: AuthStoreState): AuthState {
  if (state.status !== 'authenticated') return state;
  // Staff who must have a second factor and have none yet are sent to set one up (issue 29 §3).
  const secondFactorMissing = state.user.secondFactorRequired === true && state.user.secondFactor !== true;
  return { status: 'authenticated', role: state.user.role, secondFactorMissing };
}

/**
 * The language a page must be shown in (issue 31; `languageFor`): the account's, else the path's
 * prefix, else the visitor's remembered choice, else the browser's languages. A signed-in person's
 * language is remembered on the device too, so pages the server answers without a session look
 * (public pages) open in it.
 */
function wantedLanguage(url: URL): Language {
  const state = $auth.get();
  const preference = state.status === 'authenticated' ? (state.user.language ?? null) : null;
  const remembered = rememberedLanguage(document.cookie);
  if (preference && remembered !== preference) document.cookie = languageCookie(preference, location.protocol === 'https:');
  return languageFor({ path: splitLanguage(url.pathname).language, preference, remembered, browser: firstLanguageOf(navigator.languages) });
}

/** The language of the page on screen (its `<html lang>`, set by the prerender). */
const pageLanguage = (): Language => splitLanguage(location.pathname).language;

function decide(url: URL, from: string | null, maintenance: boolean): Decision {
  return decideNavigation({ path: url.pathname, search: url.search, auth: ruleAuth($auth.get()), from, maintenance, language: wantedLanguage(url) });
}

async function decideWhenKnown(url: URL, from: string | null, maintenance: boolean): Promise<Decision> {
  const decision = decide(url, from, maintenance);
  if (decision.action !== 'wait') return decision;
  await authReady();
  return decide(url, from, maintenance);
}

/** The build meta, waited for at most META_WAIT_MS. */
function buildMetaReady(): Promise<void> {
  return Promise.race([startBuildWatcher(), new Promise<void>((resolve) => setTimeout(resolve, META_WAIT_MS))]);
}

/** The maintenance flag, the build meta and the route-rule redirect of a path. */
async function inputs(url: URL): Promise<{ maintenance: boolean; rule: ReturnType<typeof ruleRedirect> }> {
  const [maintenance] = await Promise.all([fetchMaintenance(), buildMetaReady()]);
  return { maintenance, rule: maintenance ? null : ruleRedirect($build.get().meta?.matcher, url.pathname, location.origin) };
}

/** Shows the page: the visitor may stay. */
function release(): void {
  delete root.dataset.guard;
}

/** A page whose parameters fail their check is a 404 (docs/product.md §2). */
function failsParamCheck(path: string): boolean {
  const match = matchRoute(splitLanguage(path).path);
  return match !== null && !paramsAreValid(match);
}

function showNotFound(): void {
  if (document.querySelector('[data-error-page]')) {
    release();
    return;
  }
  void import('./error-view.tsx').then(({ renderErrorView }) => renderErrorView({ statusCode: 404, path: location.pathname }));
}

/**
 * A move to or from /maintenance, or into another language: a full page load (the header's
 * persisted islands were rendered in the page's language; issue 31).
 */
const crossesMaintenance = (fromPath: string, toPath: string): boolean => {
  const from = splitLanguage(fromPath);
  const to = splitLanguage(toPath);
  return (from.path === MAINTENANCE_PATH) !== (to.path === MAINTENANCE_PATH) || from.language !== to.language;
};

/** Never settles: the page is being replaced by a full page load. */
const leaving = (): Promise<never> => new Promise<never>(() => {});

/** The path of a same-origin referrer: where a full page load came from. */
function referrerPath(): string | null {
  if (!document.referrer) return null;
  try {
    const url = new URL(document.referrer);
    return url.origin === location.origin ? url.pathname : null;
  } catch {
    return null;
  }
}

let run = 0;

/**
 * Decides the page now shown and stays or redirects (replacing the history entry). On the first
 * load the redirect is a full page load: the page's islands may still be hydrating, and swapping
 * the page under them makes React give up on them (a static host serves the page as built, so
 * this is where a signed-in visitor of /register is sent home there).
 */
async function guardCurrentPage(from: string | null, known: boolean | null = null, firstLoad = false): Promise<void> {
  const mine = ++run;
  const url = new URL(location.href);
  if (failsParamCheck(url.pathname)) {
    // The not-found page decides nothing: the maintenance flag the page's <head> asked for is not needed.
    discardEarlyResponses(EARLY_SHELL_PATHS);
    showNotFound();
    return;
  }
  // After a client-side navigation the flag was just read for it; otherwise it is read now.
  const { maintenance, rule } = known === null ? await inputs(url) : { maintenance: known, rule: null };
  if (mine !== run) return; // a newer navigation took over
  if (rule) {
    await navigateTo(rule.to, { external: rule.kind === 'external', replace: true });
    return;
  }
  const decision = await decideWhenKnown(url, from, maintenance);
  if (mine !== run) return;
  if (decision.action === 'redirect') {
    const target = new URL(decision.to, location.origin);
    if (target.href !== url.href) {
      if (firstLoad || crossesMaintenance(url.pathname, target.pathname)) location.replace(target.href);
      else await navigate(target.href, { history: 'replace' });
      return;
    }
  }
  release();
}

/** Where the last client-side navigation came from. */
let navigationFrom: string | null = null;
let navigated = false;
/** The maintenance flag as read for the navigation in progress (nothing is kept longer). */
let navigationMaintenance = false;
let navigationDecided = false;

let guardStarted = false;

/** Starts the guard: once per full page load (the shell's boot calls it). */
export function startGuard(): void {
  if (guardStarted) return;
  guardStarted = true;
  document.addEventListener('astro:before-preparation', (event: TransitionBeforePreparationEvent) => {
    navigated = true;
    navigationDecided = false;
    navigationFrom = event.from.pathname;
    // A newer build is out: this navigation is a full page load (Astro loads `event.to` itself).
    if (shouldReloadFor(event.to.pathname)) {
      event.preventDefault();
      return;
    }
    // Back/forward has already moved in history: decide once the page is there (astro:page-load).
    if (event.navigationType === 'traverse') return;
    const from = event.from.pathname;
    // A link without a language prefix (the app's own hrefs) stays in the page's language.
    const here = pageLanguage();
    if (here !== SOURCE_LANGUAGE && splitLanguage(event.to.pathname).language === SOURCE_LANGUAGE) {
      event.to = new URL(relocalize(`${event.to.pathname}${event.to.search}${event.to.hash}`, here), location.origin);
    }
    const load = event.loader;
    event.loader = async () => {
      const { maintenance, rule } = await inputs(event.to);
      navigationMaintenance = maintenance;
      navigationDecided = true;
      if (rule?.kind === 'external') {
        await navigateTo(rule.to, { external: true });
        return leaving();
      }
      if (rule) event.to = new URL(rule.to, location.origin);
      const decision = await decideWhenKnown(event.to, from, maintenance);
      if (decision.action === 'redirect') event.to = new URL(decision.to, location.origin);
      if (crossesMaintenance(from, event.to.pathname)) {
        location.href = event.to.href;
        return leaving();
      }
      await load();
    };
  });

  // The new page is in place: show it at once when it may be shown (no wait for page-load).
  document.addEventListener('astro:after-swap', () => {
    const url = new URL(location.href);
    if (failsParamCheck(url.pathname)) return;
    if (decide(url, navigationFrom, navigationMaintenance).action === 'stay') release();
  });

  document.addEventListener('astro:page-load', () => {
    // The first page-load event belongs to the full load handled below.
    if (!navigated) return;
    void guardCurrentPage(navigationFrom, navigationDecided ? navigationMaintenance : null);
  });

  // docs/product.md §4: the current-user call runs at startup.
  void loadCurrentUser();
  void guardCurrentPage(referrerPath(), null, true);
}
