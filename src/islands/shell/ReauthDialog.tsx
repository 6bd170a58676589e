/**
 * The re-authentication dialog (issue 29 §4), once per page load in BaseLayout (hydrated by
 * `client:reauth` when a call first needs it; transition:persist keeps it across client-side
 * navigations). A sensitive call answered 403 `reauth_required` waits (src/stores/reauth.ts)
 * while this asks for the password — and the authentication code when the account has an
 * authenticator app (GET /api/account/security says) — or a passkey; POST /api/auth/reauth, and
 * the call is sent again. The screen underneath is left as it was: what the person typed stays.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { apiGet, apiSend, ApiError, type SecurityView } from '../../platform/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { passkeyAssertion, passkeyErrorMessage, passkeysSupported } from '../../lib/passkeys.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { useClientStore } from '../../lib/use-client-store.ts';
import { $reauth, settleReauth, type ReauthState } from '../../stores/reauth.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { codeHint, codeLabel, codeProblem, normaliseCode, OneTimeCodeInput } from '../../components/one-time-code.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { m } from '../../shared/i18n.ts';

const CLOSED: ReauthState = { open: false };

/** What the dialog knows of the account's factors: not yet, or what GET /api/account/security said (null: it could not say). */
type Factors = { status: 'loading' } | { status: 'known'; totp: boolean; passkeys: boolean } | { status: 'unknown' };

export default function ReauthDialog() {
  const state = useClientStore($reauth, CLOSED);
  return (
    <Dialog open={state.open} onOpenChange={(open) => !open && settleReauth(false)}>
      {state.open && <ReauthForm />}
    </Dialog>
  );
}

function ReauthForm() {
  const id = useId();
  const [factors, setFactors] = useState<Factors>({ status: 'loading' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState<'password' | 'passkey' | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    apiGet<SecurityView>('/api/account/security', { signal: controller.signal })
      .then((view) => setFactors({ status: 'known', totp: view.totp, passkeys: view.passkeys.length > 0 }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        // Without the answer the code field shows (optional words): better asked than missing.
        setFactors({ status: 'unknown' });
        handleSessionLost(error);
      });
    return () => controller.abort();
  }, []);

  const askCode = factors.status === 'unknown' || (factors.status === 'known' && factors.totp);
  const offerPasskey = passkeysSupported() && (factors.status === 'unknown' || (factors.status === 'known' && factors.passkeys));

  const confirmed = () => settleReauth(true);

  /** A wrong password or code is said beside its field (401 with its code); any other 401 means the session is gone. */
  const fail = (error: unknown) => {
    if (error instanceof ApiError && error.code === 'invalid_credentials') {
      setErrors({ password: error.message });
      passwordRef.current?.focus();
      return;
    }
    if (error instanceof ApiError && error.code === 'invalid_code') {
      setErrors({ code: error.message });
      document.getElementById(`${id}-code`)?.focus();
      return;
    }
    if (handleSessionLost(error)) {
      settleReauth(false);
      return;
    }
    if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
      setErrors({ password: error.fields.password?.join(' '), code: error.fields.code?.join(' ') });
    }
    setAlert(errorMessage(error));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAlert(null);
    const problems = {
      password: password === '' ? m.shell_reauth_password_required() : undefined,
      code: askCode && (factors.status === 'known' || code !== '') ? (codeProblem(code) ?? undefined) : undefined,
    };
    setErrors(problems);
    if (problems.password || problems.code) {
      if (problems.password) passwordRef.current?.focus();
      else document.getElementById(`${id}-code`)?.focus();
      return;
    }
    setBusy('password');
    try {
      const sentCode = askCode && code !== '' ? normaliseCode(code) : undefined;
      await apiSend('POST', '/api/auth/reauth', sentCode ? { password, code: sentCode } : { password });
      confirmed();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  };

  const confirmWithPasskey = async () => {
    setAlert(null);
    setBusy('passkey');
    try {
      const passkey = await passkeyAssertion('/api/auth/reauth/options');
      await apiSend('POST', '/api/auth/reauth', { passkey });
      confirmed();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401 && error.code !== 'invalid_code' && handleSessionLost(error)) settleReauth(false);
      else setAlert(passkeyErrorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <DialogContent
      aria-describedby={`${id}-description`}
      onOpenAutoFocus={(event) => {
        event.preventDefault();
        passwordRef.current?.focus();
      }}
    >
      <DialogHeader>
        <DialogTitle>{m.shell_reauth_title()}</DialogTitle>
        <DialogDescription id={`${id}-description`}>{m.shell_reauth_description()}</DialogDescription>
      </DialogHeader>
      <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <FormAlert message={alert} />
        <FormField id={`${id}-password`} label={m.shell_reauth_password()} error={errors.password}>
          {(control) => (
            <PasswordInput
              {...control}
              ref={passwordRef}
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
        </FormField>
        {askCode && (
          <FormField
            id={`${id}-code`}
            label={codeLabel()}
            hint={factors.status === 'unknown' ? m.shell_reauth_code_hint() : undefined}
            description={codeHint()}
            error={errors.code}
          >
            {(control) => <OneTimeCodeInput {...control} value={code} onChange={(event) => setCode(event.target.value)} />}
          </FormField>
        )}
        <DialogFooter className="pt-2">
          <Button type="button" variant="outline" onClick={() => settleReauth(false)}>
            {m.shell_common_cancel()}
          </Button>
          <Button type="submit" loading={busy === 'password'} disabled={busy === 'passkey'}>
            {m.shell_reauth_confirm()}
          </Button>
        </DialogFooter>
      </form>
      {offerPasskey && (
        <div className="flex flex-col gap-3 border-t border-border pt-4">
          <p className="text-sm text-muted-foreground">{m.shell_reauth_passkey_lead()}</p>
          <Button type="button" variant="secondary" loading={busy === 'passkey'} disabled={busy === 'password'} onClick={() => void confirmWithPasskey()}>
            {m.shell_reauth_use_passkey()}
          </Button>
        </div>
      )}
    </DialogContent>
  );
}
