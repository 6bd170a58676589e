import { useSyncExternalStore } from 'react';
import { $auth, type AuthStoreState } from '../stores/auth.ts';

const UNKNOWN: AuthStoreState = { status: 'unknown' };
const subscribe = (onChange: () => void): (() => void) => $auth.listen(onChange);
const getSnapshot = (): AuthStoreState => $auth.get();
const getServerSnapshot = (): AuthStoreState => UNKNOWN;

/**
 * The auth state for React islands. The prerendered HTML always shows the unknown state, and
 * hydration starts from it too (no mismatch); React then moves to the real state at once.
 */
export function useAuth(): AuthStoreState {
  return useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
}
