/**
 * Re-authentication (issue 29 §4): a sensitive call answered 403 `reauth_required` waits here
 * while the shell's dialog (islands/shell/ReauthDialog.tsx, hydrated on the first request by
 * `client:reauth`) asks the person to confirm it's them; once they did, the HTTP client sends the
 * call again (`withReauth`, src/platform/api.ts). Calls refused together share one dialog. The
 * screen that made the call is not touched meanwhile, so what the person typed there stays.
 */
import { atom } from 'nanostores';
import { setReauthHandler } from '../platform/api.ts';
import { REAUTH_EVENT, wake } from '../platform/events.ts';

export interface ReauthState {
  open: boolean;
}

export const $reauth = atom<ReauthState>({ open: false });

let waiting: { promise: Promise<boolean>; resolve: (confirmed: boolean) => void } | null = null;

/** Opens the dialog (or joins the one open); resolves true once the person confirmed, false when they closed it. */
export function requestReauth(): Promise<boolean> {
  if (waiting) return waiting.promise;
  let resolve: (confirmed: boolean) => void = () => {};
  const promise = new Promise<boolean>((done) => {
    resolve = done;
  });
  waiting = { promise, resolve };
  $reauth.set({ open: true });
  wake(REAUTH_EVENT);
  return promise;
}

/** The dialog's outcome: true once POST /api/auth/reauth succeeded, false when it was closed. */
export function settleReauth(confirmed: boolean): void {
  const current = waiting;
  waiting = null;
  $reauth.set({ open: false });
  current?.resolve(confirmed);
}

/** Makes every API call refused with `reauth_required` wait for the dialog (the shell calls it once per page load). */
export function installReauth(): void {
  setReauthHandler(requestReauth);
}
