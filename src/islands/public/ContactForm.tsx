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
      <FormField id="contact-name" label="Your name" error={errors.name?.message}>
        {(c) => <Input {...c} autoComplete="name" {...register('name')} />}
      </FormField>
      <FormField id="contact-email" label="Email" description="We answer to this address." error={errors.email?.message}>
        {(c) => <Input {...c} type="email" autoComplete="email" inputMode="email" autoCapitalize="none" spellCheck={false} {...register('email')} />}
      </FormField>
      <FormField id="contact-message" label="Message" error={errors.message?.message} extraDescribedBy="contact-message-count">
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
      <p id="contact-message-count" className="-mt-3 text-right text-xs text-muted-foreground tabular-nums">
        {length} / {CONTACT_MESSAGE_MAX_LENGTH} characters
      </p>
      <Button type="submit" heldBeforeHydration size="lg" loading={isSubmitting} className="w-full sm:w-auto sm:self-start">
        Send message
      </Button>
    </form>
  );
}

function MessageSent({ email, onAnother }: { email: string; onAnother: () => void }) {
  return (
    <Outcome
      tone="success"
      level="h3"
      title="Thank you, your message is on its way"
      action={
        <Button variant="outline" onClick={onAnother}>
          Send another message
        </Button>
      }
    >
      <p>
        We will answer at <strong className="font-semibold wrap-anywhere text-foreground">{email}</strong>, usually within two working days.
      </p>
    </Outcome>
  );
}
