/** The link check of /update-email/{token} in React (the guest token pages check theirs without React: token-check.ts). */
import { useCallback, useEffect, useState } from 'react';
import type { TokenType } from '../shared/tokens.ts';
import { $auth, authReady } from '../stores/auth.ts';
import { checkToken, type TokenCheck } from './token-check.ts';

export { tokenFromLocation, type TokenCheck } from './token-check.ts';

/**
 * GET /api/tokens/verify for the page's token, with a `retry` for failures that are not "invalid".
 * `signedIn`: the page needs a session; check the link only once the visitor is known to have
 * one (the route guard sends everyone else to sign in).
 */
export function useTokenCheck(type: TokenType, { signedIn = false }: { signedIn?: boolean } = {}): { check: TokenCheck; retry: () => void } {
  const [check, setCheck] = useState<TokenCheck>({ status: 'checking' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setCheck({ status: 'checking' });
    const allowed = signedIn ? authReady().then(() => $auth.get().status === 'authenticated') : Promise.resolve(true);
    void allowed
      .then((go) => (go ? checkToken(type, controller.signal) : null))
      .then((result) => {
        if (result !== null && !controller.signal.aborted) setCheck(result);
      });
    return () => controller.abort();
  }, [type, attempt, signedIn]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { check, retry };
}
