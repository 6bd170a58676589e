/** Reading and checking the link token of /onboarding/{token}, /reset-password/{token}, /update-email/{token}. */
import { useCallback, useEffect, useState } from 'react';
import type { TokenType } from '../shared/tokens.ts';
import { ApiError, apiGet, withQuery, type TokenInfo } from '../platform/api.ts';
import { errorMessage } from './form-errors.ts';
import { $auth, authReady } from '../stores/auth.ts';

/** The token from the address bar (the page is a prerendered shell for every token). */
export function tokenFromLocation(): string | null {
  const last = location.pathname.replace(/\/+$/, '').split('/').pop();
  if (!last) return null;
  try {
    const token = decodeURIComponent(last);
    return token === '' || token === '_' ? null : token;
  } catch {
    return null;
  }
}

export type TokenCheck =
  | { status: 'checking' }
  | { status: 'valid'; token: string; info: TokenInfo }
  /** Unknown, used or expired. */
  | { status: 'invalid' }
  | { status: 'error'; message: string };

/**
 * GET /api/tokens/verify for the page's token, with a `retry` for failures that are not "invalid".
 * `signedIn`: the page needs a session; check the link only once the visitor is known to have
 * one (the route guard sends everyone else to sign in).
 */
export function useTokenCheck(type: TokenType, { signedIn = false }: { signedIn?: boolean } = {}): { check: TokenCheck; retry: () => void } {
  const [check, setCheck] = useState<TokenCheck>({ status: 'checking' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const token = tokenFromLocation();
    if (!token) {
      setCheck({ status: 'invalid' });
      return;
    }
    const controller = new AbortController();
    setCheck({ status: 'checking' });
    const allowed = signedIn ? authReady().then(() => $auth.get().status === 'authenticated') : Promise.resolve(true);
    allowed
      .then((go) => (go ? apiGet<TokenInfo>(withQuery('/api/tokens/verify', { token, type }), { signal: controller.signal }) : null))
      .then((info) => {
        if (info === null) return;
        setCheck(info.valid === true && info.type === type ? { status: 'valid', token, info } : { status: 'invalid' });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && (error.status === 404 || error.status === 400 || error.code === 'invalid_token')) {
          setCheck({ status: 'invalid' });
        } else {
          setCheck({ status: 'error', message: errorMessage(error) });
        }
      });
    return () => controller.abort();
  }, [type, attempt, signedIn]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { check, retry };
}
