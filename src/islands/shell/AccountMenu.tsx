import { useState } from 'react';
import { navigate } from 'astro:transitions/client';
import { LOGIN_PATH } from '../../shared/route-rules.ts';
import { lazyModule, useLazyTrigger } from '../../lib/lazy-module.ts';
import { useAuth } from '../../lib/use-auth.ts';
import { fullNameOf, initialsOf } from '../../lib/user.ts';
import { ChevronDownIcon } from '../../components/icons.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import { buttonVariants } from '../../components/ui/button-variants.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { signOut } from '../../stores/auth.ts';
import { m } from '../../shared/i18n.ts';

/** The menu itself (Radix), loaded when someone shows an intent to open it. */
const dropdown = lazyModule(() => import('./AccountMenuDropdown.tsx'));

const TRIGGER_CLASSES =
  'group flex h-10 items-center gap-2 rounded-full py-0.5 pe-0.5 ps-0.5 sm:pe-2 text-sm font-medium text-foreground hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=open]:bg-accent';

/**
 * The header's account corner (default, admin and formbuilder layouts): the signed-in user's
 * initials and name with a menu (Account, Admin for moderators and admins, Sign out); a "Sign in"
 * link for visitors; a same-size placeholder while the auth state is unknown.
 */
export default function AccountMenu() {
  const auth = useAuth();
  const [signingOut, setSigningOut] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { loaded: Dropdown, handoff, standIn } = useLazyTrigger(dropdown);

  if (auth.status === 'unknown') {
    return (
      <div className="flex h-10 items-center gap-2" aria-hidden="true" data-account-placeholder>
        <span className="size-9 rounded-full bg-muted" />
        <span className="hidden h-4 w-24 rounded bg-muted sm:block" />
      </div>
    );
  }

  if (auth.status === 'unauthenticated') {
    return (
      <a href={LOGIN_PATH} className={buttonVariants({ variant: 'outline', className: 'h-10' })}>
        {m.shell_account_menu_sign_in()}
      </a>
    );
  }

  const { user } = auth;
  const name = fullNameOf(user);

  const onSignOut = async () => {
    setFailure(null);
    setSigningOut(true);
    try {
      await signOut();
      await navigate(LOGIN_PATH);
    } catch (error) {
      // The error words (and their translations) load only when a sign-out fails: not on every page's header.
      const { errorMessage } = await import('../../lib/form-errors.ts');
      setFailure(m.shell_account_menu_sign_out_failed({ reason: errorMessage(error) }));
    } finally {
      setSigningOut(false);
    }
  };

  const trigger = (
    <>
      <span className="relative">
        <Avatar initials={initialsOf(user)} />
        {signingOut && (
          <span className="absolute inset-0 flex items-center justify-center rounded-full bg-card/80">
            <Spinner />
          </span>
        )}
      </span>
      <span className="max-w-40 truncate max-sm:sr-only">{name}</span>
      <ChevronDownIcon className="size-4 text-muted-foreground transition-transform group-data-[state=open]:rotate-180 max-sm:hidden" />
    </>
  );

  return (
    <div className="flex items-center gap-3">
      {failure && (
        <p role="alert" className="max-w-48 text-xs font-medium text-destructive sm:max-w-64">
          {failure}
        </p>
      )}
      {Dropdown ? (
        <Dropdown.default
          user={user}
          name={name}
          trigger={trigger}
          triggerClassName={TRIGGER_CLASSES}
          signingOut={signingOut}
          onSignOut={() => void onSignOut()}
          {...handoff}
        />
      ) : (
        // A stand-in of the same look until the menu is loaded: pointer over or focus loads it, a press opens it.
        <button {...standIn} className={TRIGGER_CLASSES}>
          {trigger}
        </button>
      )}
    </div>
  );
}
