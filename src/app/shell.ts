/**
 * The application shell, booted once per full page load by BaseLayout's module script: client
 * error reports, islands' unmounts held until they have hydrated, the re-authentication prompt and
 * the route guard at once (BOOT_NOW); then, each in a task of its own (BOOT_LATER), colour mode,
 * the signed-in wake, consent and analytics, the build watcher, the feature-flag banner, the
 * service worker's registration and the outbox. A failure while booting shows the error page and
 * is logged (docs/product.md §8).
 */
import type { TransitionBeforeSwapEvent } from 'astro:transitions/client';
import { loadAccount } from '../stores/account.ts';
import { $auth } from '../stores/auth.ts';
import { $colorMode, applyColorMode, isColorMode, loadColorMode, setColorMode } from '../stores/color-mode.ts';
import { $consent, confirmConsentSaved, EARLY_CONSENT_EVENT, EARLY_CONSENT_MARK, loadConsent, openConsentSettings } from '../stores/consent.ts';
import { $siteBanner, bannerText } from '../stores/site-banner.ts';
import { installReauth } from '../stores/reauth.ts';
import { createAnalytics, readAnalyticsId } from './analytics.ts';
import { startBuildWatcher } from './build-watcher.ts';
import { fetchFlag, throttled } from './feature-flags.ts';
import { startGuard } from './guard.ts';
import { guardIslandUnmounts } from './island-unmount.ts';
import { whenIdle, whenOnline, whenSettled } from './idle.ts';
import { bootSteps } from './boot.ts';
import { captureGlobalErrors, reportAction, reportError } from '../lib/report-queue.ts';
import { markSent, SIGNED_IN_EVENT, wake } from '../platform/events.ts';
import { local, readItem } from '../platform/storage.ts';
import { OUTBOX_SUMMARY_KEY } from '../shared/offline.ts';

export const BANNER_REFRESH_MS = 60_000;

/** Startup errors: logged, reported, and the error page in place of the page. */
export function showStartupError(error: unknown): void {
  console.error('Fieldwork could not start:', error);
  try {
    reportError(error, { type: 'uncaught', label: 'exception' });
  } catch {
    // Reporting is best effort.
  }
  void import('./error-view.tsx')
    .then(({ renderErrorView }) =>
      renderErrorView({
        statusCode: 500,
        description: 'Fieldwork could not start in this browser. Please reload the page; if it keeps happening, contact us.',
      }),
    )
    .catch((failure: unknown) => console.error('The error page could not be shown:', failure));
}

function bootConsentAndAnalytics(): void {
  loadConsent();
  // A choice made on the prerendered banner before its island loaded (stores/consent.ts): read it
  // and confirm it as the banner would, whether it came before the shell started or after.
  const confirmEarlyChoice = () => {
    if (!document.documentElement.hasAttribute(EARLY_CONSENT_MARK)) return;
    document.documentElement.removeAttribute(EARLY_CONSENT_MARK);
    loadConsent();
    confirmConsentSaved();
  };
  confirmEarlyChoice();
  document.addEventListener(EARLY_CONSENT_EVENT, confirmEarlyChoice);
  const analytics = createAnalytics({ id: readAnalyticsId() });
  // The page_load report is a statistic: sent once per full page load, only with statistics
  // consent (given before or on this page); error reports need none (/privacy says what is sent).
  let pageLoadReported = false;
  // Evaluated at start and on every change (nanostores calls subscribers at once).
  $consent.subscribe(({ consent }) => {
    analytics.setEnabled(consent.statistics);
    if (consent.statistics && !pageLoadReported) {
      pageLoadReported = true;
      reportAction({ name: 'page_load', data: null });
    }
  });
  // A page_view for each page a client-side navigation shows (the first page's is sent by
  // setEnabled). Told by the swap before it, not by counting page loads: this step may run after
  // the first page's own `astro:page-load` (bootShell runs it apart, after a pause).
  let swapped = false;
  document.addEventListener('astro:after-swap', () => {
    swapped = true;
  });
  document.addEventListener('astro:page-load', () => {
    if (!swapped) return;
    swapped = false;
    analytics.pageView();
  });
  // "Cookie settings" links (footers): open the banner instead of following the link.
  document.addEventListener(
    'click',
    (event) => {
      const link = event.target instanceof Element ? event.target.closest('[data-cookie-settings]') : null;
      if (!link) return;
      event.preventDefault();
      openConsentSettings();
    },
    true,
  );
}

function bootColorMode(): void {
  loadColorMode();
  // A client-side navigation replaces <html>'s attributes: carry the mode into the new document.
  document.addEventListener('astro:before-swap', (event: TransitionBeforeSwapEvent) => applyColorMode($colorMode.get(), event.newDocument.documentElement));
  // Signed in: the account's colour mode is applied on load.
  let synced = false;
  $auth.subscribe((state) => {
    if (state.status !== 'authenticated' || synced) return;
    synced = true;
    loadAccount()
      .then((account) => {
        const mode = account?.user.preferences.colorMode;
        if (isColorMode(mode) && mode !== $colorMode.get()) setColorMode(mode);
      })
      .catch(() => {
        // The local choice stays.
      });
  });
}

function bootReports(): void {
  captureGlobalErrors();
}

const BANNER_CLASSES = 'border-b border-border bg-secondary px-4 py-2 text-center text-sm font-medium text-secondary-foreground';

/**
 * Writes the banner's text into the layouts' prerendered region (`[data-site-banner]`, TopBar.astro:
 * a polite status, kept across client-side navigations): no island, so a page needs no React for it.
 */
function showBanner(text: string | null): void {
  for (const region of document.querySelectorAll<HTMLElement>('[data-site-banner]')) {
    const current = region.querySelector('p');
    if (!text) {
      current?.remove();
      continue;
    }
    const line = current ?? region.appendChild(document.createElement('p'));
    line.className = BANNER_CLASSES;
    if (line.textContent !== text) line.textContent = text;
  }
}

function bootBanner(): void {
  const load = throttled(async () => bannerText(await fetchFlag('banner')), BANNER_REFRESH_MS);
  const refresh = (): void => {
    showBanner($siteBanner.get());
    void load().then((text) => $siteBanner.set(text));
  };
  $siteBanner.listen(showBanner);
  refresh();
  document.addEventListener('astro:page-load', refresh);
}

/**
 * Islands hydrated on intent that a signed-in visitor needs at once (`client:intent="signed-in"`,
 * src/app/directives/intent.ts) wake on this; the mark is carried across client-side navigations.
 */
function bootSignedInWake(): void {
  $auth.subscribe((state) => {
    if (state.status === 'authenticated') wake(SIGNED_IN_EVENT);
  });
  document.addEventListener('astro:before-swap', (event: TransitionBeforeSwapEvent) => {
    if ($auth.get().status === 'authenticated') markSent(SIGNED_IN_EVENT, event.newDocument.documentElement);
  });
}

function bootBuildWatcher(): void {
  void startBuildWatcher();
}

/**
 * Something waits in the outbox of this browser (its summary is in localStorage): each time a
 * participant is signed in (at load, or after signing out and in again without a page load), the
 * sender starts for their rows, on any page, when the browser is idle (signed out, it would only
 * meet 401s and spend its tries).
 */
function bootOutbox(): void {
  if (readItem(local(), OUTBOX_SUMMARY_KEY) === null) return;
  let startedFor: string | number | null = null;
  $auth.subscribe((state) => {
    if (state.status !== 'authenticated' || state.user.role !== 'participant' || state.user.id === startedFor) return;
    startedFor = state.user.id;
    whenIdle(() => void import('../islands/participant/outbox/resume.ts').then((module) => module.resumeSending()).catch(() => undefined));
  });
}

/**
 * The service worker (participants' pages offline, issue 33 §2): its registration loads once the
 * page has settled (`whenSettled`: a while after its `load` event, at an idle moment; its install
 * fetches the precache, which should not compete with the page's own start), on the first
 * participant's page, whether loaded or reached by a client-side navigation (signing in on /login
 * leads home without a page load).
 */
function bootServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const load = (): void => void import('./service-worker.ts').then((module) => module.registerServiceWorker()).catch(() => undefined);
  // Offline when its time comes (the page was left open without signal): at the `online` event.
  const register = (): void => whenSettled(() => whenOnline(load));
  register();
  document.addEventListener('astro:page-load', register);
}

/**
 * What must be in place before the page goes on, run in the task that loads the shell: error
 * reports, islands' unmounts held until they have hydrated, the re-authentication prompt and the
 * route guard (it decides what the page shows).
 */
const BOOT_NOW = [bootReports, guardIslandUnmounts, installReauth, startGuard] as const;

/**
 * The rest, each in a task of its own after a pause (bootSteps' `apartFrom`): run together they
 * made the shell's first task one of the page's longest (docs/benchmarks.md, "The shell boots in
 * steps"). None changes what the page first shows, and each reads the state it needs when it runs
 * (the stores' subscribers are called at once with the current value), so starting a few tasks
 * later loses nothing.
 */
const BOOT_LATER = [bootColorMode, bootSignedInWake, bootConsentAndAnalytics, bootBuildWatcher, bootBanner, bootServiceWorker, bootOutbox] as const;

export function bootShell(): Promise<boolean> {
  return bootSteps([...BOOT_NOW, ...BOOT_LATER], showStartupError, { apartFrom: BOOT_NOW.length });
}
