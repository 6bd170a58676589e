import { useState } from 'react';
import type { z } from 'zod';
import type { forgotPasswordSchema } from '../../shared/schemas/auth.ts';
import { useApiForm } from '../../lib/use-api-form.ts';
import { apiSend, type OkResponse } from '../../platform/api.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { CheckInbox, LINK_CLASS } from '../../components/CheckInbox.tsx';
import { m } from '../../shared/i18n.ts';

type ForgotValues = z.input<typeof forgotPasswordSchema>;

/** /forgot-password: the same answer whether or not an account exists. */
export default function ForgotPasswordForm() {
  const [sent, setSent] = useState(false);
  const {
    onSubmit,
    alert,
    register,
    formState: { errors, isSubmitting },
  } = useApiForm<ForgotValues>({
    schema: () => import('../../shared/schemas/auth.ts').then((schemas) => schemas.forgotPasswordSchema),
    defaultValues: { email: '' },
    fields: ['email'],
    submit: async (values) => {
      await apiSend<OkResponse>('POST', '/api/auth/password/forgot', values);
      setSent(true);
    },
  });

  if (sent) return <LinkSent onRestart={() => setSent(false)} />;

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <p className="-mt-1 text-sm text-muted-foreground">{m.auth_forgot_intro()}</p>
      <FormAlert message={alert} />
      <FormField id="forgot-email" label={m.auth_email()} error={errors.email?.message}>
        {(c) => <Input {...c} type="email" autoComplete="email" inputMode="email" autoCapitalize="none" spellCheck={false} {...register('email')} />}
      </FormField>
      <Button type="submit" heldBeforeHydration size="lg" loading={isSubmitting} className="w-full">
        {m.auth_forgot_submit()}
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        {m.auth_forgot_remembered()}{' '}
        <a href="/login" className={LINK_CLASS}>
          {m.auth_back_to_sign_in()}
        </a>
      </p>
    </form>
  );
}

function LinkSent({ onRestart }: { onRestart: () => void }) {
  return (
    <CheckInbox retry={{ lead: m.auth_forgot_sent_lead(), label: m.auth_forgot_sent_retry(), onRestart }}>
      <p>{m.auth_forgot_sent()}</p>
    </CheckInbox>
  );
}
