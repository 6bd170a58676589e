/** Events that wake the islands hydrated on demand (the client directives in `src/app/directives/`), sent by the stores. */
export const CONSENT_SETTINGS_EVENT = 'fieldwork:consent-settings';
export const TOAST_EVENT = 'fieldwork:toast';

/** Sends one of these events on the document (a no-op outside a browser, e.g. in unit tests). */
export function wake(event: typeof CONSENT_SETTINGS_EVENT | typeof TOAST_EVENT): void {
  if (typeof document !== 'undefined') document.dispatchEvent(new Event(event));
}
