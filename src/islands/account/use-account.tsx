/** Loading GET /api/account for the account screens, and the states they share. */
import { useCallback, useEffect, useState } from 'react';
import { apiGet, type AccountResponse, type AccountSession, type AccountUser } from '../../lib/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { $auth, authReady, setAuthenticatedUser } from '../../stores/auth.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';

export type AccountLoad = { status: 'loading' } | { status: 'ready'; data: AccountResponse } | { status: 'error'; message: string };

export interface UseAccount {
  load: AccountLoad;
  reload: () => void;
  /** Puts a user the API returned in place (and in the auth store: header name, initials). */
  setUser: (user: AccountUser) => void;
  setSessions: (sessions: AccountSession[]) => void;
}

/** The signed-in user's account; fetched once the visitor is known to be signed in. */
export function useAccount(): UseAccount {
  const [load, setLoad] = useState<AccountLoad>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setLoad({ status: 'loading' });
    authReady()
      .then(() => ($auth.get().status === 'authenticated' ? apiGet<AccountResponse>('/api/account', { signal: controller.signal }) : null))
      .then((data) => {
        if (data) setLoad({ status: 'ready', data });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted || handleSessionLost(error)) return;
        setLoad({ status: 'error', message: errorMessage(error) });
      });
    return () => controller.abort();
  }, [attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const setUser = useCallback((user: AccountUser) => {
    setAuthenticatedUser(user);
    setLoad((current) => (current.status === 'ready' ? { status: 'ready', data: { ...current.data, user } } : current));
  }, []);
  const setSessions = useCallback((sessions: AccountSession[]) => {
    setLoad((current) => (current.status === 'ready' ? { status: 'ready', data: { ...current.data, sessions } } : current));
  }, []);
  return { load, reload, setUser, setSessions };
}

/** Loading and failure of the account call, in place of a screen's content. */
export function AccountPending({ load, reload, label = 'Loading your account…' }: { load: AccountLoad; reload: () => void; label?: string }) {
  if (load.status === 'loading') {
    return (
      <Card>
        <LoadingBlock label={label} className="py-16" />
      </Card>
    );
  }
  if (load.status === 'error') {
    return (
      <div className="flex max-w-xl flex-col items-start gap-4">
        <Alert variant="destructive" title="We could not load your account">
          {load.message}
        </Alert>
        <Button variant="outline" onClick={reload}>
          Try again
        </Button>
      </div>
    );
  }
  return null;
}
