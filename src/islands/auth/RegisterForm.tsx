import { useState } from 'react';
import type { z } from 'zod';
import type { registerSchema } from '../../shared/schemas/auth.ts';
import { useApiForm } from '../../lib/use-api-form.ts';
import { apiSend, type OkResponse } from '../../platform/api.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { TermsField } from './TermsField.tsx';
import { CheckInbox, LINK_CLASS } from '../../components/CheckInbox.tsx';
import { m } from '../../shared/i18n.ts';

type RegisterValues = z.input<typeof registerSchema>;

/** /register: who you are and the terms; the answer never says whether the address was known. */
export default function RegisterForm() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    onSubmit,
    alert,
    register,
    control,
    formState: { errors, isSubmitting },
  } = useApiForm<RegisterValues>({
    schema: () => import('../../shared/schemas/auth.ts').then((schemas) => schemas.registerSchema),
    defaultValues: { firstName: '', lastName: '', email: '' },
    fields: ['firstName', 'lastName', 'email', 'acceptTerms'],
    submit: async (values) => {
      await apiSend<OkResponse>('POST', '/api/auth/register', values);
      setSentTo(values.email);
    },
  });

  if (sentTo) return <AccountLinkSent email={sentTo} onRestart={() => setSentTo(null)} />;

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <p className="-mt-1 text-sm text-muted-foreground">{m.auth_register_intro()}</p>
      <FormAlert message={alert} />
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="register-first-name" label={m.auth_first_name()} error={errors.firstName?.message}>
          {(c) => <Input {...c} autoComplete="given-name" {...register('firstName')} />}
        </FormField>
        <FormField id="register-last-name" label={m.auth_last_name()} error={errors.lastName?.message}>
          {(c) => <Input {...c} autoComplete="family-name" {...register('lastName')} />}
        </FormField>
      </div>
      <FormField id="register-email" label={m.auth_email()} error={errors.email?.message}>
        {(c) => <Input {...c} type="email" autoComplete="email" inputMode="email" autoCapitalize="none" spellCheck={false} {...register('email')} />}
      </FormField>
      <TermsField id="register-accept-terms" control={control} name="acceptTerms" error={errors.acceptTerms?.message} />
      <Button type="submit" heldBeforeHydration size="lg" loading={isSubmitting} className="w-full">
        {m.auth_register_submit()}
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        {m.auth_register_have_account()}{' '}
        <a href="/login" className={LINK_CLASS}>
          {m.auth_sign_in()}
        </a>
      </p>
    </form>
  );
}

function AccountLinkSent({ email, onRestart }: { email: string; onRestart: () => void }) {
  return (
    <CheckInbox retry={{ lead: m.auth_register_sent_lead(), label: m.auth_register_sent_retry(), onRestart }}>
      <p>
        {m.auth_register_sent_before()} <strong className="font-semibold wrap-anywhere text-foreground">{email}</strong> {m.auth_register_sent_after()}
      </p>
    </CheckInbox>
  );
}
