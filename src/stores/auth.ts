/**
 * The authentication state of docs/product.md §4: unknown at start, authenticated when GET /api/auth
 * succeeds, unauthenticated when it fails or after sign-out. Onboarding sets it from the user the
 * API returns; sign-in does not set it (the caller fetches the current user again).
 */
import { atom } from 'nanostores';
import { ApiError, apiGet, apiSend, toCurrentUser, type CurrentUser, type OkResponse } from '../platform/api.ts';
import { $colorMode, isColorMode, setColorMode } from './color-mode.ts';

export type AuthStoreState = { status: 'unknown' } | { status: 'authenticated'; user: CurrentUser } | { status: 'unauthenticated' };

const UNKNOWN: AuthStoreState = { status: 'unknown' };
const UNAUTHENTICATED: AuthStoreState = { status: 'unauthenticated' };

export const $auth = atom<AuthStoreState>(UNKNOWN);

let settle: (() => void) | null = null;
const ready = new Promise<void>((resolve) => {
  settle = resolve;
});

$auth.subscribe((state) => {
  if (state.status !== 'unknown' && settle) {
    settle();
    settle = null;
  }
});

/** Resolves once the state is known (authenticated or unauthenticated) for the first time. */
export function authReady(): Promise<void> {
  return ready;
}

let inFlight: Promise<AuthStoreState> | null = null;

/**
 * GET /api/auth: success → authenticated with that user, any failure → unauthenticated.
 * Concurrent calls share one request.
 */
export function loadCurrentUser(): Promise<AuthStoreState> {
  inFlight ??= apiGet<CurrentUser>('/api/auth')
    .then((user): AuthStoreState => ({ status: 'authenticated', user: toCurrentUser(user) }))
    .catch((): AuthStoreState => UNAUTHENTICATED)
    .then((state) => {
      $auth.set(state);
      inFlight = null;
      return state;
    });
  return inFlight;
}

/** Onboarding (docs/product.md §4) and account updates: the API returned the user; store it. */
export function setAuthenticatedUser(user: CurrentUser): void {
  $auth.set({ status: 'authenticated', user: toCurrentUser(user) });
  // An account user (the preferences screen saved it): its colour mode applies at once.
  const preferences: unknown = (user as CurrentUser & { preferences?: unknown }).preferences;
  const mode = typeof preferences === 'object' && preferences !== null ? (preferences as { colorMode?: unknown }).colorMode : undefined;
  if (isColorMode(mode) && mode !== $colorMode.get()) setColorMode(mode);
}

/** The session is gone (the API answered 401): mark the visitor unauthenticated. */
export function markSignedOut(): void {
  $auth.set(UNAUTHENTICATED);
}

/**
 * POST /api/auth/logout, then unauthenticated. A 401 means the session had already ended, which
 * is the outcome we wanted; any other failure is thrown and the state is kept.
 */
export async function signOut(): Promise<void> {
  try {
    await apiSend<OkResponse>('POST', '/api/auth/logout', {});
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
  }
  $auth.set(UNAUTHENTICATED);
}

/** The signed-in user, or null. */
export function currentUser(): CurrentUser | null {
  const state = $auth.get();
  return state.status === 'authenticated' ? state.user : null;
}
