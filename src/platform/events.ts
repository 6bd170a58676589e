/** Events that wake the islands hydrated on demand (the client directives in `src/app/directives/`), sent by the stores. */
export const CONSENT_SETTINGS_EVENT = 'fieldwork:consent-settings';
export const TOAST_EVENT = 'fieldwork:toast';
/** The visitor is signed in (sent by the shell once the auth state says so; `client:intent="signed-in"`). */
export const SIGNED_IN_EVENT = 'fieldwork:signed-in';
/** A sensitive call waits for the person to confirm it's them (`client:reauth`: the shell's dialog, src/stores/reauth.ts). */
export const REAUTH_EVENT = 'fieldwork:reauth';

type WakeEvent = typeof CONSENT_SETTINGS_EVENT | typeof TOAST_EVENT | typeof SIGNED_IN_EVENT | typeof REAUTH_EVENT;

/** The mark a sent event leaves on `<html>` (`data-fieldwork-toast`), for a directive that starts listening later. */
const markOf = (event: WakeEvent): string => `data-${event.replace(':', '-')}`;

/**
 * Sends one of these events on the document (a no-op outside a browser, e.g. in unit tests), and
 * marks that it was sent: an island that hydrates on it may register its listener only after a
 * store sent it (a click handled by another island first), and then wakes at once (`wasSent`).
 */
export function wake(event: WakeEvent): void {
  if (typeof document === 'undefined') return;
  document.documentElement.setAttribute(markOf(event), '');
  document.dispatchEvent(new Event(event));
}

/** Marks `root` (a client-side navigation's new `<html>`) as if the event had been sent there. */
export function markSent(event: WakeEvent, root: Element): void {
  root.setAttribute(markOf(event), '');
}

/** Whether the event was sent on this page before (see `wake`). */
export function wasSent(event: WakeEvent): boolean {
  return typeof document !== 'undefined' && document.documentElement.hasAttribute(markOf(event));
}
