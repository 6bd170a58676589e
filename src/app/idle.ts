/**
 * When the shell's background work runs (src/app/shell.ts): not while the page is starting.
 *
 * - `whenIdle`: at the browser's next idle moment (at most `IDLE_TIMEOUT_MS` later), or after a
 *   second where `requestIdleCallback` is missing.
 * - `whenSettled`: once the page has loaded and then had `SETTLE_MS` to render what it loads after
 *   its `load` event (the survey's and mission's screens draw after their data arrives), at an idle
 *   moment after that. The service worker's registration waits for it: its install fetches the
 *   language's precache (some 150 files), and that burst in the browser, its network service and
 *   the server, started at the first idle moment after `load`, competed with the screen's own
 *   rendering on a 2-core machine (docs/benchmarks.md, "The service worker waits for the page").
 * - `whenOnline`: now, or at the `online` event when the browser is offline.
 * - `yieldToMain`: after the browser has had the main thread back (it may paint or answer input);
 *   the shell's boot steps are spread over tasks with it (src/app/boot.ts).
 */

/** The longest an idle callback waits for an idle moment. */
export const IDLE_TIMEOUT_MS = 5_000;

/** How long after the `load` event the page is given before background work starts. */
export const SETTLE_MS = 3_000;

/** What these helpers use of `window` (a fake in unit tests). */
export type IdleWindow = Pick<Window, 'addEventListener' | 'setTimeout'> & {
  readonly document: Pick<Document, 'readyState'>;
  readonly navigator: Pick<Navigator, 'onLine'>;
  requestIdleCallback?: Window['requestIdleCallback'];
};

export function whenIdle(run: () => void, win: IdleWindow = window): void {
  if (typeof win.requestIdleCallback === 'function') win.requestIdleCallback(() => run(), { timeout: IDLE_TIMEOUT_MS });
  else win.setTimeout(run, 1_000);
}

export function whenSettled(run: () => void, win: IdleWindow = window): void {
  const afterLoad = (): void => void win.setTimeout(() => whenIdle(run, win), SETTLE_MS);
  if (win.document.readyState === 'complete') afterLoad();
  else win.addEventListener('load', afterLoad, { once: true });
}

/**
 * Now, or once the browser is back online when it knows it is offline: what loads code or files in
 * the background (the service worker's registration) does not fail, and is not lost, because the
 * page went offline before its time came.
 */
export function whenOnline(run: () => void, win: IdleWindow = window): void {
  if (win.navigator.onLine === false) win.addEventListener('online', () => run(), { once: true });
  else run();
}

/** What `yieldToMain` reads of the global scope (a fake in unit tests). */
export interface YieldScope {
  scheduler?: { yield?: () => Promise<void> };
}

/**
 * Resolves in a later task: through `scheduler.yield()` where the browser has it (what follows
 * keeps its place ahead of other tasks), else through a zero-delay timer.
 */
export function yieldToMain(scope: YieldScope = globalThis as YieldScope): Promise<void> {
  const { scheduler } = scope;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
