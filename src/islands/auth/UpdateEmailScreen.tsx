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
import { m } from '../../shared/i18n.ts';

type Outcome = { status: 'idle' } | { status: 'done'; email: string } | { status: 'invalid' } | { status: 'wrong-account' };

function InvalidEmailLink() {
  return (
    <TokenInvalid
      title={m.auth_update_email_invalid_title()}
      action={
        <a href="/account/edit" className={buttonVariants()}>
          {m.auth_update_email_invalid_action()}
        </a>
      }
    >
      <p>{m.auth_update_email_invalid_text()}</p>
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
        title={m.auth_update_email_wrong_account_title()}
        action={
          <a href="/account" className={buttonVariants({ variant: 'outline' })}>
            {m.auth_update_email_go_to_account()}
          </a>
        }
      >
        <p>{m.auth_update_email_wrong_account_text()}</p>
      </TokenInvalid>
    );
  }

  switch (check.status) {
    case 'checking':
      return <TokenChecking label={m.auth_update_email_checking()} />;
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
          <p className="text-sm text-muted-foreground">{m.auth_update_email_new_address()}</p>
          <p className="font-semibold wrap-anywhere">{info.email}</p>
        </div>
      </div>
      <p className="text-sm text-muted-foreground">{m.auth_update_email_text()}</p>
      <div className="flex flex-col gap-3 sm:flex-row-reverse">
        <Button size="lg" loading={busy} onClick={() => void confirm()} className="sm:flex-1">
          {m.auth_update_email_submit()}
        </Button>
        <Button asChild size="lg" variant="outline" className="sm:flex-1">
          <a href="/account">{m.shell_common_cancel()}</a>
        </Button>
      </div>
    </div>
  );
}

function EmailChanged({ email }: { email: string }) {
  return (
    <Outcome
      tone="success"
      title={m.auth_update_email_done_title()}
      action={
        <Button asChild size="lg" className="w-full">
          <a href="/account">{m.auth_update_email_go_to_account()}</a>
        </Button>
      }
    >
      <p>
        {m.auth_update_email_done_before()} <strong className="font-semibold wrap-anywhere text-foreground">{email}</strong>
        {m.auth_update_email_done_after()}
      </p>
    </Outcome>
  );
}
