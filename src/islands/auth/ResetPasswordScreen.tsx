import { useState } from 'react';
import type { z } from 'zod';
import type { resetPasswordSchema } from '../../shared/schemas/auth.ts';
import { useApiForm } from '../../lib/use-api-form.ts';
import { ApiError, apiSend, withQuery, type OkResponse } from '../../platform/api.ts';
import { tokenFromLocation, validToken } from '../../lib/token-check.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { PasswordRequirements } from '../../components/PasswordRequirements.tsx';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { TokenInvalid } from './TokenStates.tsx';
import { Outcome } from '../../components/Outcome.tsx';
import { m } from '../../shared/i18n.ts';

/** The link is unknown, used or expired (also prerendered by the page, `TokenCheck.astro`). */
export function InvalidResetLink() {
  return (
    <TokenInvalid
      title={m.auth_reset_invalid_title()}
      action={
        <a href="/forgot-password" className={buttonVariants()}>
          {m.auth_reset_invalid_action()}
        </a>
      }
    >
      <p>{m.auth_reset_invalid_text()}</p>
    </TokenInvalid>
  );
}

/**
 * /reset-password/{token}: choose a new password, then sign in everywhere again. The page checks
 * the link and shows this form (`components/TokenCheck.astro`, `lib/token-check.ts`); it hydrates
 * when the visitor reaches for it (`client:intent`), reading the same link.
 */
export default function ResetPasswordScreen() {
  const [state, setState] = useState<'form' | 'invalid' | 'done'>('form');
  if (state === 'done') return <PasswordChanged />;
  if (state === 'invalid') return <InvalidResetLink />;
  return <ResetForm onDone={() => setState('done')} onInvalid={() => setState('invalid')} />;
}

type ResetValues = z.input<typeof resetPasswordSchema>;

function ResetForm({ onDone, onInvalid }: { onDone: () => void; onInvalid: () => void }) {
  // Null while prerendering: the page fills in the address before it shows the form.
  const link = validToken();
  const {
    register,
    onSubmit,
    alert,
    watch,
    formState: { errors, isSubmitting },
  } = useApiForm<ResetValues>({
    schema: () => import('../../shared/schemas/auth.ts').then((schemas) => schemas.resetPasswordSchema),
    defaultValues: { password: '', confirmPassword: '' },
    describeError: (error) => {
      if (!(error instanceof ApiError && error.code === 'invalid_token')) return undefined;
      onInvalid();
      return null;
    },
    submit: async (values) => {
      await apiSend<OkResponse>('POST', withQuery('/api/auth/password/reset', { token: link?.token ?? tokenFromLocation() ?? '' }), values);
      onDone();
    },
  });
  const password = watch('password');

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <p className="-mt-1 text-sm text-muted-foreground">
        {m.auth_reset_intro_before()}{' '}
        <strong data-token-text="email" className="font-semibold wrap-anywhere text-foreground">
          {link?.info.email}
        </strong>
        {m.auth_reset_intro_after()}
      </p>
      <FormAlert message={alert} />
      <input type="email" name="username" autoComplete="username" defaultValue={link?.info.email ?? ''} readOnly hidden />
      <FormField id="reset-password" label={m.auth_reset_new_password()} error={errors.password?.message} extraDescribedBy="reset-password-rules">
        {(c) => <PasswordInput {...c} autoComplete="new-password" {...register('password')} />}
      </FormField>
      <PasswordRequirements id="reset-password-rules" password={password} />
      <FormField id="reset-confirm-password" label={m.auth_reset_confirm_password()} error={errors.confirmPassword?.message}>
        {(c) => <PasswordInput {...c} autoComplete="new-password" {...register('confirmPassword')} />}
      </FormField>
      <Button type="submit" heldBeforeHydration size="lg" loading={isSubmitting} className="w-full">
        {m.auth_reset_submit()}
      </Button>
    </form>
  );
}

function PasswordChanged() {
  return (
    <Outcome
      tone="success"
      title={m.auth_reset_done_title()}
      action={
        <Button asChild size="lg" className="w-full">
          <a href="/login">{m.auth_sign_in()}</a>
        </Button>
      }
    >
      <p>{m.auth_reset_done_text()}</p>
    </Outcome>
  );
}
