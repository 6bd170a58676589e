/**
 * The account screens' view of the shared account store (src/stores/account.ts), as the app's one
 * load state (`Load`, src/lib/resource.ts), and the states they share. The store, not
 * `useResource`, holds the account: one GET per page load, shared with the shell's colour mode.
 */
import { useCallback, useDeferredValue, useEffect, type ReactNode } from 'react';
import type { AccountResponse, AccountSession, AccountUser } from '../../platform/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import type { Load } from '../../lib/resource.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { useClientStore } from '../../lib/use-client-store.ts';
import { $account, loadAccount, reloadAccount, setAccountSessions, setAccountUser, type AccountState } from '../../stores/account.ts';
import { m } from '../../shared/i18n.ts';
import { Failed } from '../../components/states/Failed.tsx';
import { LoadingNote } from '../../components/states/Loading.tsx';

export interface UseAccount {
  load: Load<AccountResponse>;
  reload: () => void;
  /** Puts a user the API returned in place (and in the auth store: header name, initials). */
  setUser: (user: AccountUser) => void;
  setSessions: (sessions: AccountSession[]) => void;
}

const LOADING: AccountState = { status: 'loading' };

function viewOf(state: AccountState): Load<AccountResponse> {
  if (state.status === 'ready') return state;
  if (state.status === 'error') return { status: 'error', message: errorMessage(state.error) };
  return { status: 'loading' };
}

/** The signed-in user's account: loaded once per page load and shared with the header. */
export function useAccount(): UseAccount {
  // Deferred: when the account arrives, React keeps the skeleton on screen and renders the screen in
  // the background, yielding to the page, instead of in one long task (total blocking time on a phone).
  const state = useDeferredValue(useClientStore($account, LOADING));

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
export function AccountPending({ load, reload, skeleton }: { load: Load<AccountResponse>; reload: () => void; skeleton: ReactNode }) {
  if (load.status === 'loading') return <>{skeleton}</>;
  if (load.status !== 'ready') return <Failed title={m.account_load_failed()} message={load.message} onRetry={reload} />;
  return null;
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
  birthYear: null,
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
      <LoadingNote label={m.account_loading()} />
      <div inert>{children(ignore)}</div>
    </div>
  );
}
