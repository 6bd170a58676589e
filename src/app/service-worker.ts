/**
 * The service worker's registration and updates (issue 33 §2; `docs/decisions/038-field-capture.md`
 * "Missions offline"), loaded by the shell when the browser is idle (src/app/shell.ts) so a page's
 * start carries none of it.
 *
 * - Registered on participants' pages only (not staff, guest or public ones), for the page's
 *   language (`/sw.js?lang=de`), and never in `astro dev`.
 * - A new worker (a new build) installs and waits. It takes over once neither the outbox's sending
 *   nor a recording holds its Web Lock (SENDING_LOCK, RECORDING_LOCK, in any tab); when the build
 *   watcher has seen that this page runs an older build, the page then reloads, once.
 */
import { SERVICE_WORKER_PATH } from '../shared/offline.ts';
import { splitLanguage } from '../shared/languages.ts';
import { mayActivate, participantRouteOf, serviceWorkerUrl, SKIP_WAITING_MESSAGE } from '../shared/service-worker.ts';
import { $build, isOutdated } from '../stores/build.ts';
import { claimReload } from './build-watcher.ts';

/** How often a waiting worker looks again whether sending or recording has ended. */
export const LOCK_POLL_MS = 2_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** True when no upload is being sent and nothing is being recorded (no Web Locks API: nothing can hold them). */
export async function nothingRunning(locks: LockManager | undefined = typeof navigator === 'undefined' ? undefined : navigator.locks): Promise<boolean> {
  if (!locks?.query) return true;
  const { held = [] } = await locks.query();
  return mayActivate(held.map((lock) => lock.name));
}

/** Resolves once nothing is being sent or recorded. */
export async function whenNothingRuns(): Promise<void> {
  while (!(await nothingRunning())) await sleep(LOCK_POLL_MS);
}

let started = false;

export async function registerServiceWorker(win: Window = window): Promise<ServiceWorkerRegistration | null> {
  if (started || import.meta.env.DEV) return null;
  const container = win.navigator.serviceWorker as ServiceWorkerContainer | undefined;
  if (!container || !participantRouteOf(win.location.pathname)) return null;
  started = true;
  const { language } = splitLanguage(win.location.pathname);
  const registration = await container.register(serviceWorkerUrl(language), { scope: '/', updateViaCache: 'none' });

  // The first worker takes the page over by itself (nothing to reload); a later one reloads an outdated page, once.
  let controlled = container.controller !== null;
  container.addEventListener('controllerchange', () => {
    if (!controlled) {
      controlled = true;
      return;
    }
    if (!isOutdated()) return;
    void whenNothingRuns().then(() => {
      if (claimReload(`${SERVICE_WORKER_PATH}:${$build.get().latest ?? ''}`)) win.location.reload();
    });
  });

  let activating = false;
  const activateWaiting = async (): Promise<void> => {
    if (activating || !registration.waiting || !container.controller) return;
    activating = true;
    try {
      await whenNothingRuns();
      registration.waiting?.postMessage({ type: SKIP_WAITING_MESSAGE });
    } finally {
      activating = false;
    }
  };
  const followInstalling = (): void => {
    const worker = registration.installing;
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed') void activateWaiting();
    });
  };
  registration.addEventListener('updatefound', followInstalling);
  followInstalling();
  void activateWaiting();
  // The build watcher saw a newer build: fetch its worker now (the browser would only on a later navigation).
  $build.subscribe((state) => {
    if (isOutdated(state)) registration.update().catch(() => undefined);
  });
  return registration;
}
