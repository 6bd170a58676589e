import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { LoginInput } from '../../shared/schemas/auth.ts';
import type { SecondFactorMethod } from '../../shared/second-factors.ts';
import { navigateTo } from '../../lib/navigation.ts';
import { useApiForm } from '../../lib/use-api-form.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { passkeyAssertion, passkeyErrorMessage } from '../../lib/passkeys.ts';
import { afterSignIn } from '../../shared/route-rules.ts';
import { ApiError, apiSend, type OkResponse, type SecondFactorNeeded } from '../../platform/api.ts';
import { loadCurrentUser } from '../../stores/auth.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import {
  codeHint,
  codeLabel,
  codeProblem,
  normaliseCode,
  OneTimeCodeInput,
  RecoveryCodeInput,
  recoveryCodeLabel,
  recoveryCodeProblem,
} from '../../components/one-time-code.tsx';
import { Button } from '../../components/ui/button.tsx';
import { CheckboxField } from '../../components/ui/checkbox.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { m } from '../../shared/i18n.ts';

/** What a sign-in that started a session does next: ask who we are now, then follow `r` (or go home). Returns an alert, or null once it navigates. */
async function finishSignIn(): Promise<string | null> {
  // Sign-in alone does not set the state: ask who we are now.
  const state = await loadCurrentUser();
  if (state.status !== 'authenticated') return m.auth_login_not_kept();
  const r = new URLSearchParams(location.search).get('r');
  // Moderators and admins land on the admin dashboard unless `r` names another page.
  await navigateTo(afterSignIn(r, state.user.role), { replace: true });
  return null;
}

const needsSecondStep = (answer: unknown): answer is SecondFactorNeeded =>
  typeof answer === 'object' && answer !== null && (answer as { next?: unknown }).next === 'second_factor';

/**
 * /login: email and password; then, for an account with a second factor, the second step in place
 * (an authentication code, a recovery code or a passkey); or a passkey alone. Then the current
 * user is fetched again (docs/product.md §4) and `r` followed.
 */
export default function LoginForm() {
  const [secondStep, setSecondStep] = useState<SecondFactorNeeded | null>(null);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const {
    register,
    onSubmit,
    alert,
    setAlert,
    formState: { errors, isSubmitting },
  } = useApiForm<LoginInput>({
    schema: () => import('../../shared/schemas/auth.ts').then((schemas) => schemas.loginSchema),
    defaultValues: { email: '', password: '' },
    describeError: (error) => (error instanceof ApiError && error.code === 'invalid_credentials' ? m.auth_login_incorrect() : undefined),
    submit: async (values, form) => {
      const answer = await apiSend<OkResponse | SecondFactorNeeded>('POST', '/api/auth/login', values);
      if (needsSecondStep(answer)) {
        setSecondStep(answer);
        return;
      }
      const problem = await finishSignIn();
      if (problem) form.setAlert(problem);
    },
  });

  const signInWithPasskey = async () => {
    setAlert(null);
    setPasskeyBusy(true);
    try {
      const response = await passkeyAssertion('/api/auth/passkey/options');
      await apiSend<OkResponse>('POST', '/api/auth/passkey', { response });
      const problem = await finishSignIn();
      if (problem) setAlert(problem);
    } catch (error) {
      setAlert(passkeyErrorMessage(error));
    } finally {
      setPasskeyBusy(false);
    }
  };

  if (secondStep) {
    return (
      <SecondStep
        methods={secondStep.methods}
        canTrustBrowser={secondStep.canTrustBrowser}
        onRestart={(message) => {
          setSecondStep(null);
          setAlert(message);
        }}
      />
    );
  }

  return (
    <div className="flex flex-col gap-5">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-describedby="login-intro">
        <p id="login-intro" className="-mt-1 text-sm text-muted-foreground">
          {m.auth_login_intro()}
        </p>
        <FormAlert message={alert} />
        <FormField id="login-email" label={m.auth_email()} error={errors.email?.message}>
          {(control) => (
            <Input {...control} type="email" autoComplete="email" inputMode="email" autoCapitalize="none" spellCheck={false} {...register('email')} />
          )}
        </FormField>
        <div className="flex flex-col gap-2">
          <FormField id="login-password" label={m.auth_password()} error={errors.password?.message}>
            {(control) => <PasswordInput {...control} autoComplete="current-password" {...register('password')} />}
          </FormField>
          <a href="/forgot-password" className="self-end text-sm font-medium text-primary underline-offset-4 hover:underline">
            {m.auth_login_forgot()}
          </a>
        </div>
        <Button type="submit" heldBeforeHydration size="lg" loading={isSubmitting} disabled={passkeyBusy} className="w-full">
          {m.auth_sign_in()}
        </Button>
      </form>
      <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden="true">
        <span className="h-px flex-1 bg-border" />
        {m.auth_login_or()}
        <span className="h-px flex-1 bg-border" />
      </div>
      <Button
        type="button"
        variant="outline"
        size="lg"
        loading={passkeyBusy}
        disabled={isSubmitting}
        className="w-full"
        onClick={() => void signInWithPasskey()}
      >
        {m.auth_login_passkey()}
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        {m.auth_login_new()}{' '}
        <a href="/register" className="font-medium text-primary underline underline-offset-4 hover:no-underline">
          {m.auth_login_create_account()}
        </a>
      </p>
    </div>
  );
}

type Mode = 'totp' | 'recovery';

/**
 * The second step, in place of the password form: the authentication code (focused), or a
 * recovery code, or a passkey; "Trust this browser for 30 days" for participants (staff are always
 * asked). A pending sign-in that ended (5 minutes, five wrong steps) starts over.
 */
function SecondStep({
  methods,
  canTrustBrowser,
  onRestart,
}: {
  methods: readonly SecondFactorMethod[];
  canTrustBrowser: boolean;
  onRestart: (message: string) => void;
}) {
  const id = useId();
  const hasTotp = methods.includes('totp');
  const hasRecovery = methods.includes('recovery');
  const hasPasskey = methods.includes('passkey');
  const [mode, setMode] = useState<Mode>(hasTotp ? 'totp' : 'recovery');
  // Passkey only (no app): the passkey is the step; a recovery code only when asked for.
  const [showCodeForm, setShowCodeForm] = useState(hasTotp || !hasPasskey);
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [trust, setTrust] = useState(false);
  const [busy, setBusy] = useState<'code' | 'passkey' | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const passkeyButton = useRef<HTMLButtonElement>(null);

  // Focus moves to the field (or the passkey button) as the step shows and when the way changes.
  useEffect(() => {
    if (showCodeForm) field.current?.focus();
    else passkeyButton.current?.focus();
  }, [mode, showCodeForm]);

  const switchTo = (next: Mode) => {
    setMode(next);
    setShowCodeForm(true);
    setValue('');
    setFieldError(null);
    setAlert(null);
  };

  const fail = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401 && error.code !== 'invalid_code') {
      onRestart(m.auth_login_pending_ended());
      return;
    }
    if (error instanceof ApiError && error.code === 'invalid_code') {
      setFieldError(error.message);
      setAlert(error.message);
      field.current?.focus();
      return;
    }
    setAlert(errorMessage(error));
  };

  const send = async (proof: { code: string } | { recoveryCode: string } | { passkey: unknown }) => {
    await apiSend<OkResponse>('POST', '/api/auth/second-factor', trust ? { ...proof, trustBrowser: true } : proof);
    const problem = await finishSignIn();
    if (problem) setAlert(problem);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAlert(null);
    const problem = mode === 'totp' ? codeProblem(value) : recoveryCodeProblem(value);
    setFieldError(problem);
    if (problem) {
      field.current?.focus();
      return;
    }
    setBusy('code');
    try {
      await send(mode === 'totp' ? { code: normaliseCode(value) } : { recoveryCode: value.trim() });
    } catch (error) {
      fail(error);
    } finally {
      setBusy(null);
    }
  };

  const signInWithPasskeyStep = async () => {
    setAlert(null);
    setBusy('passkey');
    try {
      await send({ passkey: await passkeyAssertion('/api/auth/passkey/options') });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401 && error.code !== 'invalid_code') onRestart(m.auth_login_pending_ended());
      else setAlert(passkeyErrorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const fieldId = `${id}-${mode}`;
  const intro = !showCodeForm ? m.auth_second_step_intro_passkey() : mode === 'totp' ? m.auth_second_step_intro_totp() : m.auth_second_step_intro_recovery();

  return (
    <section className="flex flex-col gap-5" aria-labelledby={`${id}-title`}>
      <div className="-mt-1 flex flex-col gap-1">
        <h2 id={`${id}-title`} className="text-lg font-semibold tracking-tight">
          {m.auth_second_step_title()}
        </h2>
        <p id={`${id}-intro`} className="text-sm text-muted-foreground">
          {intro}
        </p>
      </div>
      <FormAlert message={alert} />
      {showCodeForm && (
        <form
          noValidate
          onSubmit={(event) => void submit(event)}
          className="flex flex-col gap-5"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-intro`}
        >
          <FormField
            key={mode}
            id={fieldId}
            label={mode === 'totp' ? codeLabel() : recoveryCodeLabel()}
            description={mode === 'totp' ? codeHint() : undefined}
            error={fieldError ?? undefined}
          >
            {(control) =>
              mode === 'totp' ? (
                <OneTimeCodeInput {...control} ref={field} value={value} onChange={(event) => setValue(event.target.value)} />
              ) : (
                <RecoveryCodeInput {...control} ref={field} value={value} onChange={(event) => setValue(event.target.value)} />
              )
            }
          </FormField>
          {canTrustBrowser && <TrustBrowser id={`${id}-trust`} checked={trust} onChange={setTrust} />}
          <Button type="submit" size="lg" loading={busy === 'code'} disabled={busy === 'passkey'} className="w-full">
            {m.auth_second_step_continue()}
          </Button>
        </form>
      )}
      <div className="flex flex-col gap-3">
        {hasPasskey && (
          <>
            {!showCodeForm && canTrustBrowser && <TrustBrowser id={`${id}-trust`} checked={trust} onChange={setTrust} />}
            <Button
              ref={passkeyButton}
              type="button"
              variant={showCodeForm ? 'outline' : 'default'}
              size="lg"
              loading={busy === 'passkey'}
              disabled={busy === 'code'}
              className="w-full"
              onClick={() => void signInWithPasskeyStep()}
            >
              {m.auth_second_step_passkey()}
            </Button>
          </>
        )}
        <div className="flex flex-col items-center gap-2 text-sm">
          {showCodeForm && mode === 'totp' && hasRecovery && <LinkButton onClick={() => switchTo('recovery')}>{m.auth_second_step_use_recovery()}</LinkButton>}
          {(!showCodeForm || mode === 'recovery') && hasTotp && <LinkButton onClick={() => switchTo('totp')}>{m.auth_second_step_use_app()}</LinkButton>}
          {!showCodeForm && !hasTotp && hasRecovery && <LinkButton onClick={() => switchTo('recovery')}>{m.auth_second_step_use_recovery()}</LinkButton>}
          <LinkButton onClick={() => onRestart('')}>{m.auth_second_step_other_account()}</LinkButton>
        </div>
      </div>
    </section>
  );
}

function TrustBrowser({ id, checked, onChange }: { id: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <CheckboxField
      id={id}
      label={m.auth_second_step_trust()}
      description={m.auth_second_step_trust_description()}
      checked={checked}
      onCheckedChange={(next) => onChange(next === true)}
    />
  );
}

function LinkButton({ onClick, children }: { onClick: () => void; children: string }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="rounded-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      {children}
    </button>
  );
}
