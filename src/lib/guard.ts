/**
 * The route guard: SPEC.md §2's redirect rules (`decideNavigation`, the same function the server
 * runs for page requests), applied on the first load and on every client-side navigation.
 *
 * - Pages that are not public are rendered with `<html data-guard="pending">` (BaseLayout), and
 *   CSS hides their <main> until the guard lets the visitor stay: no flash of protected content.
 * - First load: the current user is loaded (once per full page load), then the page is decided.
 * - Client-side navigation: decided before the next page is fetched (the target is rewritten, so
 *   history records where the visitor really went); back/forward is decided once it has arrived.
 *
 * Imported once by BaseLayout's module script; module scripts run once per full page load.
 */
import { navigate, type TransitionBeforePreparationEvent } from 'astro:transitions/client';
import { decideNavigation, type AuthState, type Decision } from '../shared/route-rules.ts';
import { $auth, authReady, loadCurrentUser, type AuthStoreState } from '../stores/auth.ts';

const root = document.documentElement;

function ruleAuth(state: AuthStoreState): AuthState {
  return state.status === 'authenticated' ? { status: 'authenticated', role: state.user.role } : state;
}

function decide(url: URL, from: string | null): Decision {
  // `maintenance` stays off until the maintenance flag is wired into the client.
  return decideNavigation({ path: url.pathname, search: url.search, auth: ruleAuth($auth.get()), from, maintenance: false });
}

async function decideWhenKnown(url: URL, from: string | null): Promise<Decision> {
  const decision = decide(url, from);
  if (decision.action !== 'wait') return decision;
  await authReady();
  return decide(url, from);
}

/** Shows the page: the visitor may stay. */
function release(): void {
  delete root.dataset.guard;
}

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

/** Decides the page now shown and stays or redirects (replacing the history entry). */
async function guardCurrentPage(from: string | null): Promise<void> {
  const mine = ++run;
  const url = new URL(location.href);
  const decision = await decideWhenKnown(url, from);
  if (mine !== run) return; // a newer navigation took over
  if (decision.action === 'redirect') {
    const target = new URL(decision.to, location.origin);
    if (target.href !== url.href) {
      await navigate(target.href, { history: 'replace' });
      return;
    }
  }
  release();
}

/** Where the last client-side navigation came from. */
let navigationFrom: string | null = null;
let navigated = false;

document.addEventListener('astro:before-preparation', (event: TransitionBeforePreparationEvent) => {
  navigated = true;
  navigationFrom = event.from.pathname;
  // Back/forward has already moved in history: decide once the page is there (astro:page-load).
  if (event.navigationType === 'traverse') return;
  const from = event.from.pathname;
  const load = event.loader;
  event.loader = async () => {
    const decision = await decideWhenKnown(event.to, from);
    if (decision.action === 'redirect') event.to = new URL(decision.to, location.origin);
    await load();
  };
});

// The new page is in place: show it at once when it may be shown (no wait for page-load).
document.addEventListener('astro:after-swap', () => {
  if (decide(new URL(location.href), navigationFrom).action === 'stay') release();
});

document.addEventListener('astro:page-load', () => {
  // The first page-load event belongs to the full load handled below.
  if (!navigated) return;
  void guardCurrentPage(navigationFrom);
});

// SPEC.md §4: the current-user call runs at startup.
void loadCurrentUser();
void guardCurrentPage(referrerPath());
