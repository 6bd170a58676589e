import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { contactSchema } from '../../shared/schemas/contact-messages.ts';
import { CONTACT_MESSAGE_MAX_LENGTH } from '../../shared/limits.ts';
import { useApiForm } from '../../lib/use-api-form.ts';
import { apiSend, type OkResponse } from '../../platform/api.ts';
import { fullNameOf } from '../../lib/user.ts';
import { useAuth } from '../../lib/use-auth.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { controlClasses } from '../../components/ui/input.tsx';
import { cn } from '../../lib/utils.ts';
import { Outcome } from '../../components/Outcome.tsx';
import { m } from '../../shared/i18n.ts';
import { aroundPlaceholder } from './message-parts.ts';

type ContactValues = z.input<typeof contactSchema>;

const EMPTY: ContactValues = { name: '', email: '', message: '' };

/** /contact: name, email and message; stored and mailed to the support address (rate limited). */
export default function ContactForm() {
  const auth = useAuth();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    onSubmit,
    alert,
    reset,
    watch,
    getValues,
    formState: { errors, isSubmitting },
  } = useApiForm<ContactValues>({
    schema: () => import('../../shared/schemas/contact-messages.ts').then((m) => m.contactSchema),
    defaultValues: EMPTY,
    submit: async (values) => {
      await apiSend<OkResponse>('POST', '/api/contact', values);
      setSentTo(values.email);
    },
  });

  // Signed in: start from the account's name and address (still editable).
  const user = auth.status === 'authenticated' ? auth.user : null;
  useEffect(() => {
    if (!user) return;
    const current = getValues();
    if (current.name === '' && current.email === '') reset({ ...current, name: fullNameOf(user), email: user.email });
  }, [user, getValues, reset]);

  const length = watch('message').length;

  if (sentTo !== null) {
    return (
      <MessageSent
        email={sentTo}
        onAnother={() => {
          reset(user ? { name: fullNameOf(user), email: user.email, message: '' } : EMPTY);
          setSentTo(null);
        }}
      />
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <FormAlert message={alert} />
      <FormField id="contact-name" label={m.public_contact_name_label()} error={errors.name?.message}>
        {(c) => <Input {...c} autoComplete="name" {...register('name')} />}
      </FormField>
      <FormField id="contact-email" label={m.public_email_label()} description={m.public_contact_email_description()} error={errors.email?.message}>
        {(c) => <Input {...c} type="email" autoComplete="email" inputMode="email" autoCapitalize="none" spellCheck={false} {...register('email')} />}
      </FormField>
      <FormField id="contact-message" label={m.public_contact_message_label()} error={errors.message?.message} extraDescribedBy="contact-message-count">
        {(c) => (
          <textarea
            {...c}
            rows={7}
            maxLength={CONTACT_MESSAGE_MAX_LENGTH}
            className={cn(controlClasses, 'h-auto min-h-36 resize-y leading-6')}
            {...register('message')}
          />
        )}
      </FormField>
      <p id="contact-message-count" className="-mt-3 text-end text-xs text-muted-foreground tabular-nums">
        {m.public_contact_message_count({ length: String(length), max: String(CONTACT_MESSAGE_MAX_LENGTH) })}
      </p>
      <Button type="submit" heldBeforeHydration size="lg" loading={isSubmitting} className="w-full sm:w-auto sm:self-start">
        {m.public_contact_submit()}
      </Button>
    </form>
  );
}

function MessageSent({ email, onAnother }: { email: string; onAnother: () => void }) {
  const [before, after] = aroundPlaceholder((slot) => m.public_contact_sent_text({ email: slot }));
  return (
    <Outcome
      tone="success"
      level="h3"
      title={m.public_contact_sent_title()}
      action={
        <Button variant="outline" onClick={onAnother}>
          {m.public_contact_sent_another()}
        </Button>
      }
    >
      <p>
        {before}
        <strong className="font-semibold wrap-anywhere text-foreground">{email}</strong>
        {after}
      </p>
    </Outcome>
  );
}
