import { useState } from 'react';
import { ApiError, apiSend, withQuery, type AccountUser } from '../../platform/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { useTokenCheck } from '../../lib/token-page.ts';
import { setAuthenticatedUser } from '../../stores/auth.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { MailIcon } from '../../components/icons.tsx';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { TokenCheckFailed, TokenChecking, TokenInvalid } from './TokenStates.tsx';
import { Outcome } from '../../components/Outcome.tsx';

type Outcome = { status: 'idle' } | { status: 'done'; email: string } | { status: 'invalid' } | { status: 'wrong-account' };

function InvalidEmailLink() {
  return (
    <TokenInvalid
      title="This confirmation link is invalid or has expired"
      action={
        <a href="/account/edit" className={buttonVariants()}>
          Ask for a new link
        </a>
      }
    >
      <p>Confirmation links work once and for 24 hours. Ask again for the change from your account and open the newest link.</p>
    </TokenInvalid>
  );
}

/** /update-email/{token} (signed in): check the link, show the new address, confirm it. */
export default function UpdateEmailScreen() {
  const { check, retry } = useTokenCheck('update-email', { signedIn: true });
  const [outcome, setOutcome] = useState<Outcome>({ status: 'idle' });
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (outcome.status === 'done') return <EmailChanged email={outcome.email} />;
  if (outcome.status === 'invalid') return <InvalidEmailLink />;
  if (outcome.status === 'wrong-account') {
    return (
      <TokenInvalid
        title="This link is for another account"
        action={
          <a href="/account" className={buttonVariants({ variant: 'outline' })}>
            Go to your account
          </a>
        }
      >
        <p>
          You are signed in with a different account than the one that asked for this change. Sign out, sign in with that account, then open the link again.
        </p>
      </TokenInvalid>
    );
  }

  switch (check.status) {
    case 'checking':
      return <TokenChecking label="Checking your confirmation link…" />;
    case 'invalid':
    case 'used':
      return <InvalidEmailLink />;
    case 'error':
      return <TokenCheckFailed message={check.message} onRetry={retry} />;
    case 'valid':
      break;
  }

  const { token, info } = check;
  const confirm = async () => {
    setAlert(null);
    setBusy(true);
    try {
      const { user } = await apiSend<{ user: AccountUser }>('POST', withQuery('/api/account/email/confirm', { token }), {});
      setAuthenticatedUser(user);
      setOutcome({ status: 'done', email: user.email });
    } catch (error) {
      if (handleSessionLost(error)) return;
      if (error instanceof ApiError && error.code === 'invalid_token') setOutcome({ status: 'invalid' });
      else if (error instanceof ApiError && error.code === 'wrong_account') setOutcome({ status: 'wrong-account' });
      else setAlert(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-5">
      <FormAlert message={alert} />
      <div className="flex items-start gap-3 rounded-lg border border-border bg-muted px-4 py-3">
        <MailIcon className="mt-0.5 size-5 shrink-0 text-primary" />
        <div className="min-w-0">
          <p className="text-sm text-muted-foreground">New email address</p>
          <p className="font-semibold wrap-anywhere">{info.email}</p>
        </div>
      </div>
      <p className="text-sm text-muted-foreground">
        Confirm to use this address to sign in and to receive our emails. We will let your current address know about the change.
      </p>
      <div className="flex flex-col gap-3 sm:flex-row-reverse">
        <Button size="lg" loading={busy} onClick={() => void confirm()} className="sm:flex-1">
          Confirm new email
        </Button>
        <Button asChild size="lg" variant="outline" className="sm:flex-1">
          <a href="/account">Cancel</a>
        </Button>
      </div>
    </div>
  );
}

function EmailChanged({ email }: { email: string }) {
  return (
    <Outcome
      tone="success"
      title="Your email address is changed"
      action={
        <Button asChild size="lg" className="w-full">
          <a href="/account">Go to your account</a>
        </Button>
      }
    >
      <p>
        From now on, sign in with <strong className="font-semibold wrap-anywhere text-foreground">{email}</strong>. Other devices signed in to your account have
        been signed out.
      </p>
    </Outcome>
  );
}
