/**
 * Early data: the API GETs a page needs at start are asked for by a small inline script in the
 * page's <head> (BaseLayout, `earlyDataInlineScript`), while its JavaScript still loads, instead
 * of after it (docs/architecture.md, "Early data"). `api()` (the one HTTP client) takes such an
 * answer, once, in place of its own request, so the screens keep loading through `useResource`.
 *
 * An answer is taken only while fresh (`EARLY_MAX_AGE_MS` after it was asked for): a later call
 * (a reload, "Try again", a client-side navigation back) asks the API again.
 */

/** The window property the inline script fills: path → when asked and the answer (null: the request failed). */
const GLOBAL = '__fieldworkEarly';
export const EARLY_MAX_AGE_MS = 5_000;

interface EarlyEntry {
  t: number;
  r: Promise<Response | null>;
}

/** The GETs of `/api/auth` and the maintenance flag, which every page makes at start (src/app/guard.ts). */
export const EARLY_SHELL_PATHS: readonly string[] = ['/api/auth', '/api/feature-flags?feature=maintenance'];

/**
 * The inline script that starts `paths` (same requests as `api()`'s GETs: JSON, cookies, no
 * cache). Its text goes through the build's CSP hashes like every inline script of BaseLayout.
 */
export function earlyDataInlineScript(paths: readonly string[]): string {
  return (
    `(function(){var e=window.${GLOBAL}=window.${GLOBAL}||{};function s(p,r){e[p]={t:performance.now(),r:r.catch(function(){return null})}}` +
    `${JSON.stringify(paths)}.forEach(function(p){s(p,fetch(p,{headers:{Accept:'application/json'},credentials:'include',cache:'no-store'}))});` +
    // The running build and its meta (src/app/build-watcher.ts), which the route guard waits for.
    `var l=fetch('${EARLY_BUILD_LATEST}?'+Date.now(),{cache:'no-store'});s('${EARLY_BUILD_LATEST}',l);` +
    `l.then(function(r){return r.ok?r.clone().json():null}).then(function(b){if(b&&typeof b.id==='string')s('/builds/meta/'+encodeURIComponent(b.id)+'.json',fetch('/builds/meta/'+encodeURIComponent(b.id)+'.json'))}).catch(function(){})})()`
  );
}

/** The key of the early answer of `builds/latest.json` (asked for with a cache-busting query). */
export const EARLY_BUILD_LATEST = '/builds/latest.json';

/** The early answer for `path`, once, while fresh; null when there is none (then ask the API). */
export function takeEarlyResponse(path: string): Promise<Response | null> | null {
  if (typeof window === 'undefined') return null;
  const entries = (window as unknown as Record<string, Record<string, EarlyEntry | undefined> | undefined>)[GLOBAL];
  const entry = entries?.[path];
  if (!entries || !entry) return null;
  delete entries[path];
  return performance.now() - entry.t <= EARLY_MAX_AGE_MS ? entry.r : null;
}
