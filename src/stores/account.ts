/**
 * The signed-in user's account (GET /api/account), fetched at most once per full page load and
 * shared by everything that needs it: the account screens and the colour-mode sync of the shell
 * and the header switch. Screens that change the account put the API's answer back here, so the
 * store stays current without another call. Signing out (or another user signing in) forgets it.
 */
import { atom } from 'nanostores';
import { apiGet, type AccountResponse, type AccountSession, type AccountUser } from '../platform/api.ts';
import { $auth, authReady, setAuthenticatedUser } from './auth.ts';

export type AccountState = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; data: AccountResponse } | { status: 'error'; error: unknown };

export const $account = atom<AccountState>({ status: 'idle' });

let inFlight: Promise<AccountResponse | null> | null = null;
let loadedFor: number | string | null = null;

/**
 * The account, loading it when not loaded yet (concurrent callers share one request). Resolves
 * null when the visitor is not signed in; rejects with the API error (401 when the session ended).
 */
export function loadAccount(): Promise<AccountResponse | null> {
  const state = $account.get();
  if (state.status === 'ready') return Promise.resolve(state.data);
  inFlight ??= authReady()
    .then(async () => {
      const auth = $auth.get();
      if (auth.status !== 'authenticated') return null;
      if ($account.get().status !== 'ready') $account.set({ status: 'loading' });
      const data = await apiGet<AccountResponse>('/api/account');
      loadedFor = data.user.id;
      $account.set({ status: 'ready', data });
      return data;
    })
    .catch((error: unknown) => {
      $account.set({ status: 'error', error });
      throw error;
    })
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

/** Loads the account again (after a failure, "Try again"). */
export function reloadAccount(): Promise<AccountResponse | null> {
  if (!inFlight) $account.set({ status: 'idle' });
  return loadAccount();
}

/** Puts a user the API returned in place, and in the auth store (header name, initials, colour mode). */
export function setAccountUser(user: AccountUser): void {
  setAuthenticatedUser(user);
  const state = $account.get();
  if (state.status === 'ready') $account.set({ status: 'ready', data: { ...state.data, user } });
}

export function setAccountSessions(sessions: AccountSession[]): void {
  const state = $account.get();
  if (state.status === 'ready') $account.set({ status: 'ready', data: { ...state.data, sessions } });
}

// Another visitor state (signed out, someone else signed in): the account is forgotten.
$auth.subscribe((auth) => {
  if (loadedFor === null) return;
  if (auth.status === 'authenticated' && auth.user.id === loadedFor) return;
  loadedFor = null;
  $account.set({ status: 'idle' });
});
