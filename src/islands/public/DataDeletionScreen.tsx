import { useEffect, useState } from 'react';
import type { DefaultValues, FieldValues, UseFormRegisterReturn } from 'react-hook-form';
import type { z } from 'zod';
import type { dataDeletionByEmailSchema, dataDeletionSignedInSchema } from '../../shared/schemas/data-deletion.ts';
import { DATA_DELETION_REASON_MAX_LENGTH } from '../../shared/limits.ts';
import { useApiForm, type ApiForm, type ApiFormOptions } from '../../lib/use-api-form.ts';
import { ApiError, apiGet, apiSend, withQuery, type OkResponse, type TokenInfo } from '../../platform/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { useAuth } from '../../lib/use-auth.ts';
import { cn } from '../../lib/utils.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input, controlClasses } from '../../components/ui/input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { Failed } from '../../components/states/Failed.tsx';
import { Loading } from '../../components/states/Loading.tsx';
import { Outcome } from '../../components/Outcome.tsx';
import { CheckInbox, LINK_CLASS, LinkButton } from '../../components/CheckInbox.tsx';
import { m } from '../../shared/i18n.ts';
import { aroundPlaceholder } from './message-parts.ts';

/** The `?token=` of a mailed confirmation link, if any. */
function tokenFromQuery(): string | null {
  const token = new URLSearchParams(location.search).get('token');
  return token && token.trim() !== '' ? token : null;
}

/** Drops `?token=` from the address bar (the link works once; a reload should not retry it). */
function forgetTokenInUrl(): void {
  const url = new URL(location.href);
  url.searchParams.delete('token');
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

type Mode = { kind: 'link'; token: string } | { kind: 'form' };

/**
 * /data-deletion: with `?token=` the mailed link is checked and confirmed; otherwise a signed-in
 * visitor confirms with their password, and anyone else asks by email (same answer whether or not
 * an account exists).
 *
 * The page prerenders the by-email form (what most visitors need) and hydrates on intent
 * (`client:intent="signed-in ?token"`): at once for a signed-in visitor or a mailed link, whose
 * screens replace it; the directive hides the by-email form meanwhile (`data-guest-only`).
 */
export default function DataDeletionScreen() {
  const [mode, setMode] = useState<Mode>({ kind: 'form' });
  useEffect(() => {
    const token = tokenFromQuery();
    if (token) setMode({ kind: 'link', token });
  }, []);

  if (mode.kind === 'link') {
    return (
      <ConfirmLink
        token={mode.token}
        onStartOver={() => {
          forgetTokenInUrl();
          setMode({ kind: 'form' });
        }}
      />
    );
  }
  return <RequestForm />;
}

function RequestForm() {
  const auth = useAuth();
  const [done, setDone] = useState<'confirmed' | 'sent' | null>(null);
  if (done === 'confirmed') return <Confirmed />;
  if (done === 'sent') return <LinkSent onRestart={() => setDone(null)} />;
  // Unknown (prerendered, and while hydrating): the by-email form, as for a visitor signed out.
  if (auth.status === 'authenticated') return <SignedInForm email={auth.user.email} onDone={() => setDone('confirmed')} />;
  return <ByEmailForm onDone={() => setDone('sent')} />;
}

function ReasonField({ id, error, registration }: { id: string; error: string | undefined; registration: UseFormRegisterReturn<'reason'> }) {
  return (
    <FormField
      id={id}
      label={m.public_deletion_reason_label()}
      hint={m.public_deletion_reason_hint()}
      description={m.public_deletion_reason_description()}
      error={error}
    >
      {(c) => (
        <textarea
          {...c}
          rows={4}
          maxLength={DATA_DELETION_REASON_MAX_LENGTH}
          className={cn(controlClasses, 'h-auto min-h-24 resize-y leading-6')}
          {...registration}
        />
      )}
    </FormField>
  );
}

/** A deletion request form: `POST /api/data-deletion` with its values, then `onDone`. */
function useDeletionRequest<T extends FieldValues>(schema: ApiFormOptions<T>['schema'], defaultValues: DefaultValues<T>, onDone: () => void): ApiForm<T> {
  return useApiForm<T>({
    schema,
    defaultValues,
    submit: async (values) => {
      await apiSend<OkResponse>('POST', '/api/data-deletion', values);
      onDone();
    },
  });
}

type SignedInValues = z.input<typeof dataDeletionSignedInSchema>;

function SignedInForm({ email, onDone }: { email: string; onDone: () => void }) {
  const {
    register,
    onSubmit,
    alert,
    formState: { errors, isSubmitting },
  } = useDeletionRequest<SignedInValues>(
    () => import('../../shared/schemas/data-deletion.ts').then((m) => m.dataDeletionSignedInSchema),
    { currentPassword: '', reason: '' },
    onDone,
  );
  const [before, after] = aroundPlaceholder((slot) => m.public_deletion_signed_in_text({ email: slot }));

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <p className="-mt-1 text-sm text-muted-foreground">
        {before}
        <strong className="font-semibold wrap-anywhere text-foreground">{email}</strong>
        {after}
      </p>
      <FormAlert message={alert} />
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <FormField id="deletion-password" label={m.public_deletion_current_password_label()} error={errors.currentPassword?.message}>
        {(c) => <PasswordInput {...c} autoComplete="current-password" {...register('currentPassword')} />}
      </FormField>
      <ReasonField id="deletion-reason" error={errors.reason?.message} registration={register('reason')} />
      <Button type="submit" heldBeforeHydration variant="destructive" size="lg" loading={isSubmitting} className="w-full">
        {m.public_deletion_signed_in_submit()}
      </Button>
    </form>
  );
}

type ByEmailValues = z.input<typeof dataDeletionByEmailSchema>;

function ByEmailForm({ onDone }: { onDone: () => void }) {
  const {
    register,
    onSubmit,
    alert,
    formState: { errors, isSubmitting },
  } = useDeletionRequest<ByEmailValues>(
    () => import('../../shared/schemas/data-deletion.ts').then((m) => m.dataDeletionByEmailSchema),
    { email: '', reason: '' },
    onDone,
  );
  const [before, after] = aroundPlaceholder((slot) => m.public_deletion_by_email_text({ signIn: slot }));

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" data-guest-only>
      <p className="-mt-1 text-sm text-muted-foreground">
        {before}
        <a href="/login?r=/data-deletion" className={LINK_CLASS}>
          {m.public_deletion_by_email_sign_in()}
        </a>
        {after}
      </p>
      <FormAlert message={alert} />
      <FormField id="deletion-email" label={m.public_email_label()} error={errors.email?.message}>
        {(c) => <Input {...c} type="email" autoComplete="email" inputMode="email" autoCapitalize="none" spellCheck={false} {...register('email')} />}
      </FormField>
      <ReasonField id="deletion-reason" error={errors.reason?.message} registration={register('reason')} />
      <Button type="submit" heldBeforeHydration size="lg" loading={isSubmitting} className="w-full">
        {m.public_deletion_by_email_submit()}
      </Button>
    </form>
  );
}

type LinkCheck =
  { status: 'checking' } | { status: 'valid'; email: string } | { status: 'invalid' } | { status: 'error'; message: string } | { status: 'confirmed' };

function ConfirmLink({ token, onStartOver }: { token: string; onStartOver: () => void }) {
  const [check, setCheck] = useState<LinkCheck>({ status: 'checking' });
  const [attempt, setAttempt] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setCheck({ status: 'checking' });
    apiGet<TokenInfo>(withQuery('/api/tokens/verify', { token, type: 'data-deletion' }), { signal: controller.signal })
      .then((info) => setCheck(info.valid === true && info.type === 'data-deletion' ? { status: 'valid', email: info.email } : { status: 'invalid' }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && (error.status === 404 || error.status === 400)) setCheck({ status: 'invalid' });
        else setCheck({ status: 'error', message: errorMessage(error) });
      });
    return () => controller.abort();
  }, [token, attempt]);

  async function confirm() {
    setAlert(null);
    setConfirming(true);
    try {
      await apiSend<OkResponse>('POST', withQuery('/api/data-deletion/confirm', { token }), {});
      forgetTokenInUrl();
      setCheck({ status: 'confirmed' });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.code === 'invalid_token')) setCheck({ status: 'invalid' });
      else setAlert(errorMessage(error));
    } finally {
      setConfirming(false);
    }
  }

  switch (check.status) {
    case 'checking':
      return <Loading label={m.public_deletion_link_checking()} />;
    case 'confirmed':
      return <Confirmed />;
    case 'error':
      return <Failed title={m.public_deletion_link_check_failed()} message={check.message} onRetry={() => setAttempt((n) => n + 1)} />;
    case 'invalid':
      return (
        <Outcome
          tone="error"
          title={m.public_deletion_link_invalid_title()}
          action={
            <Button variant="outline" onClick={onStartOver}>
              {m.public_deletion_link_invalid_new()}
            </Button>
          }
        >
          {m.public_deletion_link_invalid_text()}
        </Outcome>
      );
    case 'valid': {
      const [before, after] = aroundPlaceholder((slot) => m.public_deletion_confirm_text({ email: slot }));
      return (
        <div className="flex flex-col gap-5">
          <p className="text-muted-foreground">
            {before}
            <strong className="font-semibold wrap-anywhere text-foreground">{check.email}</strong>
            {after}
          </p>
          <FormAlert message={alert} />
          <Button variant="destructive" size="lg" loading={confirming} onClick={() => void confirm()} className="w-full">
            {m.public_deletion_confirm_submit()}
          </Button>
        </div>
      );
    }
  }
}

function Confirmed() {
  const [before, after] = aroundPlaceholder((slot) => m.public_deletion_confirmed_text({ contact: slot }));
  return (
    <Outcome level="h3" tone="success" title={m.public_deletion_confirmed_title()}>
      <p>
        {before}
        <a href="/contact" className={LINK_CLASS}>
          {m.public_deletion_confirmed_contact()}
        </a>
        {after}
      </p>
    </Outcome>
  );
}

function LinkSent({ onRestart }: { onRestart: () => void }) {
  return (
    <CheckInbox
      action={
        <LinkButton onClick={onRestart} className="text-sm">
          {m.public_deletion_send_another()}
        </LinkButton>
      }
    >
      <p>{m.public_deletion_link_sent_text()}</p>
    </CheckInbox>
  );
}
