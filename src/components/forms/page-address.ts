/**
 * A form's pages in the browser's history (the participant's survey, `pageInAddress` of the form
 * renderer): each page after the first is `?page={pageId}` in the address and its own history
 * entry, so the browser's Back and Forward move between the pages, and a reload opens the page on
 * screen. The first page keeps the bare address (`/surveys/{id}`, docs/product.md), so Back from
 * it leaves the survey as before.
 *
 * An entry's state keeps what Astro's ClientRouter put there (`index`, scroll) and adds
 * `formPage` (the page it shows) and `formPageBelow` (the page of the entry under it, when the
 * form pushed this one): the form's own Back button goes back in the history when the entry under
 * is the previous page, so both Backs walk the same list.
 *
 * Astro's ClientRouter handles every `popstate` of an entry that has a state, and would fetch and
 * swap the whole page for an address whose query changed (losing uploads under way). Its
 * listener is registered when its module runs, so `FORM_PAGES_INLINE_SCRIPT`, an inline script
 * of every page's <head> (BaseLayout), registers one before it: on each `popstate` it asks
 * (`fieldwork:popstate`, cancelable) whether a form claims the entry, and stops the router's
 * listener when one does. The form claims the entries of its own address; the rest stay the
 * router's (leaving the survey, coming back to it).
 */

const PARAM = 'page';

interface PageState {
  formPage?: string;
  formPageBelow?: string | null;
}

function currentState(): Record<string, unknown> & PageState {
  const state: unknown = history.state;
  return state !== null && typeof state === 'object' ? (state as Record<string, unknown> & PageState) : {};
}

/** The address of a page: `?page=` set (after the first page) or taken off (the first), the rest kept. */
function addressOf(pageId: string, first: boolean): string {
  const url = new URL(location.href);
  if (first) url.searchParams.delete(PARAM);
  else url.searchParams.set(PARAM, pageId);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The page the address names (`?page=`), or null. */
export function addressPage(): string | null {
  if (typeof location === 'undefined') return null;
  return new URLSearchParams(location.search).get(PARAM);
}

/** The page of the history entry under this one, when the form pushed this one. */
export function pageBelow(): string | null {
  return currentState().formPageBelow ?? null;
}

/** This history entry shows `pageId` (the page the form opened on, or one reached without a new entry). */
export function replacePage(pageId: string, first: boolean): void {
  history.replaceState({ ...currentState(), formPage: pageId }, '', addressOf(pageId, first));
}

/** A new history entry for `pageId` (Next, or a jump to a page with problems), above the one of `below`. */
export function pushPage(pageId: string, first: boolean, below: string): void {
  history.pushState({ ...currentState(), formPage: pageId, formPageBelow: below }, '', addressOf(pageId, first));
}

/** The event the early `popstate` listener sends first; a form that cancels it handles the move (the ClientRouter does not). */
const CLAIM_EVENT = 'fieldwork:popstate';

/**
 * The early `popstate` listener (an inline script of every page's <head>, BaseLayout): it runs
 * before the ClientRouter's, asks whether a form claims the move, and if so keeps the router out.
 */
export const FORM_PAGES_INLINE_SCRIPT = `addEventListener('popstate',function(e){if(!dispatchEvent(new Event('${CLAIM_EVENT}',{cancelable:true})))e.stopImmediatePropagation()})`;

/**
 * Calls `show` with the page of each history entry of this address the browser moves to (null:
 * an entry of the first page from before the form marked it); returns the function that stops.
 */
export function listenToPages(show: (pageId: string | null) => void): () => void {
  const path = location.pathname;
  const onMove = (event: Event) => {
    if (location.pathname !== path) return;
    // The form's own entry: not a navigation for the ClientRouter.
    event.preventDefault();
    show(currentState().formPage ?? addressPage());
  };
  window.addEventListener(CLAIM_EVENT, onMove);
  return () => window.removeEventListener(CLAIM_EVENT, onMove);
}
