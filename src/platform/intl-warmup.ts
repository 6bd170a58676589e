/**
 * The Intl warm-up (docs/decisions/039-intl-warmup.md): the first `Intl` formatter of a kind that a
 * page builds costs far more than the next ones — the engine first lists the locales that kind
 * supports and loads the language's data (Chromium: ~25–50 ms for the first `Intl.NumberFormat`,
 * ~7 ms for the first `Intl.DateTimeFormat`, on this project's machine; four times that on the
 * phone Lighthouse simulates). Those lists and data belong to the renderer process, not to one
 * thread: a small worker started from the page's <head> builds one formatter of each kind while
 * the page's scripts download, and the page's own first formatters (points, dates, plurals in the
 * messages) find the work done instead of blocking the main thread with it.
 *
 * Once per page load: a client-side navigation runs the <head>'s inline scripts again, and the
 * process is warm by then. A browser without workers, or one that refuses this one, only loses
 * the head start.
 */

/** The window property that marks the warm-up as started. */
const STARTED = '__fieldworkIntlWarm';

/** The inline script of BaseLayout's <head>: starts the worker at `url` (the built worker's) with the page's language as its name. */
export function intlWarmupInlineScript(url: string): string {
  return `(function(){if(window.${STARTED}||typeof Worker!=='function')return;window.${STARTED}=1;try{new Worker(${JSON.stringify(url)},{name:document.documentElement.lang})}catch(e){}})()`;
}
