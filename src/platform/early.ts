/**
 * Early data: the API GETs a page needs at start are asked for by a small inline script in the
 * page's <head> (BaseLayout, `earlyDataInlineScript`), while its JavaScript still loads, instead
 * of after it (docs/architecture.md, "Early data"). `api()` (the one HTTP client) takes such an
 * answer, once, in place of its own request, so the screens keep loading through `useResource`.
 *
 * An answer is taken only while fresh (`EARLY_MAX_AGE_MS` after it was asked for): a later call
 * (a reload, "Try again", a client-side navigation back) asks the API again.
 *
 * Every answer is read: by whoever takes it, or, when nobody has taken it while fresh (a page
 * whose JavaScript came late, a screen that did not need it), by the script itself, as it is when
 * the shell decides it does not need it (`discardEarlyResponses`). An unread body holds its request
 * open, and the page never reaches network idle. A client-side navigation runs the script of the
 * new page again: then it asks only for that page's own paths, as the shell's are not read again
 * (the current user is known, the guard read the maintenance flag before the swap).
 */

/** The window property the inline script fills: path → when asked and the answer (null: the request failed). */
export const EARLY_GLOBAL = '__fieldworkEarly';
const GLOBAL = EARLY_GLOBAL;
export const EARLY_MAX_AGE_MS = 5_000;

interface EarlyEntry {
  t: number;
  r: Promise<Response | null>;
}

/** The GETs of `/api/auth` and the maintenance flag, which every page makes at start (src/app/guard.ts). */
export const EARLY_SHELL_PATHS: readonly string[] = ['/api/auth', '/api/feature-flags?feature=maintenance'];

/**
 * The page's paths as a script expression. A path may name its route's parameters (`:id` in
 * `/api/surveys/:id` for `/surveys/:id`): a dynamic route's page is one shell for every id, so the
 * script reads them from the address (with or without its language prefix; numbers only). An
 * address that does not match — a malformed id, the not-found page — asks for nothing.
 */
function pagePathsExpression(pagePaths: readonly string[], pattern: string | undefined): string {
  if (!pagePaths.some((path) => path.includes(':'))) return JSON.stringify(pagePaths);
  const names = [...(pattern ?? '').matchAll(/:(\w+)/g)].map((match) => match[1]);
  const source = (pattern ?? '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/:\w+/g, '([0-9]+)');
  const items = pagePaths.map((path) =>
    path
      .split(/(:\w+)/)
      .filter(Boolean)
      .map((part) => {
        if (!part.startsWith(':')) return JSON.stringify(part);
        const index = names.indexOf(part.slice(1));
        if (index < 0) throw new Error(`Early path ${path}: ${part} is not a parameter of ${pattern ?? 'the route'}`);
        return `m[${index + 1}]`;
      })
      .join('+'),
  );
  return `(function(){var m=location.pathname.match(/^(?:\\/[a-z]{2})?${source}\\/?$/);return m?[${items.join(',')}]:[]})()`;
}

/**
 * The inline script that starts, on a full page load, `pagePaths`, the shell's paths and
 * `builds/latest.json` and its meta (after a client-side navigation: `pagePaths` only). Same requests as
 * `api()`'s GETs: JSON, cookies, no cache. An answer still there when its freshness ends is read
 * and dropped. Its text goes through the build's CSP hashes like every inline script of BaseLayout.
 * `pattern` is the page's route, whose parameters `pagePaths` may name (`pagePathsExpression`).
 */
export function earlyDataInlineScript(pagePaths: readonly string[], pattern?: string): string {
  return (
    `(function(){var e=window.${GLOBAL}=window.${GLOBAL}||{},P=${pagePathsExpression(pagePaths, pattern)};` +
    `function d(x){x.r.then(function(r){if(r&&!r.bodyUsed)return r.arrayBuffer()}).catch(function(){})}` +
    `function s(p,r){if(e[p])d(e[p]);var x=e[p]={t:performance.now(),r:r.catch(function(){return null})};` +
    `setTimeout(function(){if(e[p]===x){delete e[p];d(x)}},${EARLY_MAX_AGE_MS})}` +
    `function g(p){s(p,fetch(p,{headers:{Accept:'application/json'},credentials:'include',cache:'no-store'}))}` +
    // The document is still loading on a full page load; a client-side navigation runs this after the swap.
    `if(document.readyState!=='loading'){P.forEach(g);return}` +
    // The page's own first: what it shows (the home's lists) is answered before the shell's calls.
    `P.concat(${JSON.stringify(EARLY_SHELL_PATHS)}).forEach(g);` +
    // The running build and its meta (src/app/build-watcher.ts), which the route guard waits for.
    `var l=fetch('${EARLY_BUILD_LATEST}?'+Date.now(),{cache:'no-store'});s('${EARLY_BUILD_LATEST}',l);` +
    `l.then(function(r){return r.ok?r.clone().json():null}).then(function(b){if(b&&typeof b.id==='string')s('/builds/meta/'+encodeURIComponent(b.id)+'.json',fetch('/builds/meta/'+encodeURIComponent(b.id)+'.json'))}).catch(function(){})})()`
  );
}

/** The key of the early answer of `builds/latest.json` (asked for with a cache-busting query). */
export const EARLY_BUILD_LATEST = '/builds/latest.json';

function earlyEntries(): Record<string, EarlyEntry | undefined> | undefined {
  return typeof window === 'undefined' ? undefined : (window as unknown as Record<string, Record<string, EarlyEntry | undefined> | undefined>)[GLOBAL];
}

/** Reads an answer nobody will take, so its request ends. */
function drain(entry: EarlyEntry): void {
  entry.r.then((response) => (response && !response.bodyUsed ? response.arrayBuffer() : null)).catch(() => {});
}

/** The early answer for `path`, once, while fresh; null when there is none (then ask the API). */
export function takeEarlyResponse(path: string): Promise<Response | null> | null {
  const entries = earlyEntries();
  const entry = entries?.[path];
  if (!entries || !entry) return null;
  delete entries[path];
  if (performance.now() - entry.t <= EARLY_MAX_AGE_MS) return entry.r;
  drain(entry);
  return null;
}

/** The shell will not take these answers (or any left, without `paths`): they are read and dropped. */
export function discardEarlyResponses(paths?: readonly string[]): void {
  const entries = earlyEntries();
  if (!entries) return;
  for (const path of paths ?? Object.keys(entries)) {
    const entry = entries[path];
    if (!entry) continue;
    delete entries[path];
    drain(entry);
  }
}
