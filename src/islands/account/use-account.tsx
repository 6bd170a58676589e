/** The account screens' view of the shared account store (src/stores/account.ts), and the states they share. */
import { useCallback, useEffect, type ReactNode } from 'react';
import type { AccountResponse, AccountSession, AccountUser } from '../../lib/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { useClientStore } from '../../lib/use-client-store.ts';
import { $account, loadAccount, reloadAccount, setAccountSessions, setAccountUser, type AccountState } from '../../stores/account.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Bone, LoadingNote as SharedLoadingNote } from '../../components/ui/skeleton.tsx';

export type AccountLoad = { status: 'loading' } | { status: 'ready'; data: AccountResponse } | { status: 'error'; message: string };

export interface UseAccount {
  load: AccountLoad;
  reload: () => void;
  /** Puts a user the API returned in place (and in the auth store: header name, initials). */
  setUser: (user: AccountUser) => void;
  setSessions: (sessions: AccountSession[]) => void;
}

const LOADING: AccountState = { status: 'loading' };

function viewOf(state: AccountState): AccountLoad {
  if (state.status === 'ready') return state;
  if (state.status === 'error') return { status: 'error', message: errorMessage(state.error) };
  return { status: 'loading' };
}

/** The signed-in user's account: loaded once per page load and shared with the header. */
export function useAccount(): UseAccount {
  const state = useClientStore($account, LOADING);

  useEffect(() => {
    loadAccount().catch((error: unknown) => {
      handleSessionLost(error);
    });
  }, []);

  const reload = useCallback(() => {
    reloadAccount().catch((error: unknown) => {
      handleSessionLost(error);
    });
  }, []);
  return { load: viewOf(state), reload, setUser: setAccountUser, setSessions: setAccountSessions };
}

/**
 * Loading and failure of the account call, in place of a screen's content. While loading it shows
 * the screen's `skeleton`: the same frame at its final size, so nothing moves when the data comes.
 */
export function AccountPending({ load, reload, skeleton }: { load: AccountLoad; reload: () => void; skeleton: ReactNode }) {
  if (load.status === 'loading') return <>{skeleton}</>;
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

/** Skeletons of the account screens (one shared kit): `LoadingNote` says what is loading. */
export { Bone };
export function LoadingNote({ label = 'Loading your account…' }: { label?: string }) {
  return <SharedLoadingNote label={label} />;
}

/** An empty user for an edit form drawn, inert, as its own skeleton while the account loads. */
export const PLACEHOLDER_USER: AccountUser = {
  id: 0,
  email: '',
  firstName: '',
  lastName: '',
  role: 'participant',
  status: 'active',
  address: null,
  preferences: { emailNotifications: true, language: 'en', colorMode: 'system' },
  createdAt: '',
  pendingEmail: null,
};

const ignore = (): void => {};

/**
 * An edit screen's own form, empty and inert, while the account loads: the final frame at its
 * final size (nothing moves when the data comes), announced as loading.
 */
export function InertForm({ children }: { children: (onSaved: (user: AccountUser) => void) => ReactNode }) {
  return (
    <div aria-busy="true" className="opacity-60">
      <LoadingNote />
      <div inert>{children(ignore)}</div>
    </div>
  );
}
