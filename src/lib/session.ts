/** What screens do when the API says the session is gone. */
import { navigate } from 'astro:transitions/client';
import { loginRedirect } from '../shared/route-rules.ts';
import { markSignedOut } from '../stores/auth.ts';
import { ApiError } from '../platform/api.ts';

/**
 * A 401 from an account call means the session ended (expired, or signed out elsewhere): mark
 * the visitor signed out and send them to sign in, back here afterwards. True when handled.
 */
export function handleSessionLost(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 401) return false;
  markSignedOut();
  void navigate(loginRedirect(location.pathname, location.search, null), { history: 'replace' });
  return true;
}
