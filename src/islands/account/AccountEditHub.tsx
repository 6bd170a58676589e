import { useState, type ReactNode } from 'react';
import type { z } from 'zod';
import type { emailChangeSchema, passwordChangeSchema } from '../../shared/schemas/account.ts';
import { useApiForm } from '../../lib/use-api-form.ts';
import { apiSend, type AccountUser, type OkResponse } from '../../platform/api.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { PasswordRequirements } from '../../components/PasswordRequirements.tsx';
import { ChevronRightIcon, KeyIcon, MailIcon, MapPinIcon, SlidersIcon, UserIcon } from '../../components/icons.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { AccountPending, InertForm, PLACEHOLDER_USER, useAccount } from './use-account.tsx';
import { withNodes } from '../../components/forms/rich-text.tsx';
import { m } from '../../shared/i18n.ts';

/** The edit pages, in the page's language (called at render). */
const sections = () => [
  {
    href: '/account/edit/profile',
    title: m.account_edit_profile_title(),
    description: m.account_edit_profile_description(),
    icon: <UserIcon className="size-5" />,
  },
  {
    href: '/account/edit/address',
    title: m.account_common_address(),
    description: m.account_edit_address_description(),
    icon: <MapPinIcon className="size-5" />,
  },
  {
    href: '/account/edit/preferences',
    title: m.account_common_preferences(),
    description: m.account_edit_preferences_description(),
    icon: <SlidersIcon className="size-5" />,
  },
];

/** /account/edit: links to the edit pages, and the email and password changes. */
export default function AccountEditHub() {
  const { load, reload, setUser } = useAccount();
  return (
    <div className="flex flex-col gap-8">
      <nav aria-label={m.account_edit_nav_label()}>
        <ul className="grid gap-4 sm:grid-cols-3">
          {sections().map((section) => (
            <li key={section.href}>
              <Card
                asChild
                className="group flex h-full items-center gap-3 p-4 text-foreground no-underline transition-colors hover:border-primary/50 hover:bg-accent"
              >
                <a href={section.href}>
                  <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-secondary text-secondary-foreground">{section.icon}</span>
                  <span className="flex min-w-0 flex-1 flex-col">
                    <span className="font-semibold">{section.title}</span>
                    <span className="text-sm text-muted-foreground">{section.description}</span>
                  </span>
                  <ChevronRightIcon className="size-5 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5 rtl:group-hover:-translate-x-0.5" />
                </a>
              </Card>
            </li>
          ))}
        </ul>
      </nav>
      {load.status === 'ready' ? (
        <div className="grid items-start gap-6 lg:grid-cols-2">
          <EmailChangeCard user={load.data.user} onChange={setUser} />
          <PasswordChangeCard email={load.data.user.email} />
        </div>
      ) : (
        <AccountPending
          load={load}
          reload={reload}
          skeleton={
            <InertForm>
              {(onSaved) => (
                <div className="grid items-start gap-6 lg:grid-cols-2">
                  <EmailChangeCard user={PLACEHOLDER_USER} onChange={onSaved} />
                  <PasswordChangeCard email="" />
                </div>
              )}
            </InertForm>
          }
        />
      )}
    </div>
  );
}

function SettingCard({ icon, title, description, children }: { icon: ReactNode; title: string; description: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <span className="text-primary">{icon}</span>
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

type EmailChangeValues = z.input<typeof emailChangeSchema>;

function EmailChangeCard({ user, onChange }: { user: AccountUser; onChange: (user: AccountUser) => void }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    onSubmit,
    alert,
    register,
    reset,
    formState: { errors, isSubmitting },
  } = useApiForm<EmailChangeValues>({
    schema: () => import('../../shared/schemas/account.ts').then((schemas) => schemas.emailChangeSchema),
    defaultValues: { newEmail: '', currentPassword: '' },
    fields: ['newEmail', 'currentPassword'],
    describeError: (error) => (handleSessionLost(error) ? null : undefined),
    submit: async (values) => {
      setSentTo(null);
      const result = await apiSend<OkResponse & { pendingEmail: string }>('POST', '/api/account/email', values);
      const pending = result.pendingEmail || values.newEmail;
      setSentTo(pending);
      onChange({ ...user, pendingEmail: pending });
      reset({ newEmail: '', currentPassword: '' });
    },
  });

  const pending = sentTo ?? user.pendingEmail;
  return (
    <SettingCard
      icon={<MailIcon className="size-5" />}
      title={m.account_edit_email_title()}
      description={withNodes((marks) => m.account_edit_email_description({ email: marks.email }), {
        email: <strong className="font-semibold wrap-anywhere text-foreground">{user.email}</strong>,
      })}
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        {sentTo ? (
          <Alert variant="success" title={m.account_edit_email_sent_title()}>
            {withNodes((marks) => m.account_edit_email_sent({ email: marks.email, current: user.email }), {
              email: <strong className="wrap-anywhere">{sentTo}</strong>,
            })}
          </Alert>
        ) : (
          pending && (
            <Alert>
              {withNodes((marks) => m.account_edit_email_pending({ email: marks.email }), {
                email: <strong className="wrap-anywhere">{pending}</strong>,
              })}
            </Alert>
          )
        )}
        <FormAlert message={alert} />
        <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
        <FormField id="email-new" label={m.account_edit_new_email()} error={errors.newEmail?.message}>
          {(c) => <Input {...c} type="email" autoComplete="email" inputMode="email" autoCapitalize="none" spellCheck={false} {...register('newEmail')} />}
        </FormField>
        <FormField
          id="email-current-password"
          label={m.account_common_current_password()}
          description={m.account_edit_confirm_it_is_you()}
          error={errors.currentPassword?.message}
        >
          {(c) => <PasswordInput {...c} autoComplete="current-password" {...register('currentPassword')} />}
        </FormField>
        <div>
          <Button type="submit" loading={isSubmitting}>
            {m.account_edit_send_confirmation_link()}
          </Button>
        </div>
      </form>
    </SettingCard>
  );
}

type PasswordChangeValues = z.input<typeof passwordChangeSchema>;

function PasswordChangeCard({ email }: { email: string }) {
  const [changed, setChanged] = useState(false);
  const {
    onSubmit,
    alert,
    register,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useApiForm<PasswordChangeValues>({
    schema: () => import('../../shared/schemas/account.ts').then((schemas) => schemas.passwordChangeSchema),
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
    fields: ['currentPassword', 'password', 'confirmPassword'],
    describeError: (error) => (handleSessionLost(error) ? null : undefined),
    submit: async (values) => {
      setChanged(false);
      await apiSend<OkResponse>('POST', '/api/account/password', values);
      setChanged(true);
      reset({ currentPassword: '', password: '', confirmPassword: '' });
    },
  });
  const password = watch('password');

  return (
    <SettingCard icon={<KeyIcon className="size-5" />} title={m.account_overview_password()} description={m.account_edit_password_description()}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        {changed && (
          <Alert variant="success" title={m.account_edit_password_changed_title()}>
            {m.account_edit_password_changed()}
          </Alert>
        )}
        <FormAlert message={alert} />
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <FormField id="password-current" label={m.account_common_current_password()} error={errors.currentPassword?.message}>
          {(c) => <PasswordInput {...c} autoComplete="current-password" {...register('currentPassword')} />}
        </FormField>
        <FormField id="password-new" label={m.account_edit_new_password()} error={errors.password?.message} extraDescribedBy="password-new-rules">
          {(c) => <PasswordInput {...c} autoComplete="new-password" {...register('password')} />}
        </FormField>
        <PasswordRequirements id="password-new-rules" password={password} />
        <FormField id="password-confirm" label={m.account_edit_confirm_new_password()} error={errors.confirmPassword?.message}>
          {(c) => <PasswordInput {...c} autoComplete="new-password" {...register('confirmPassword')} />}
        </FormField>
        <div>
          <Button type="submit" loading={isSubmitting}>
            {m.account_edit_change_password()}
          </Button>
        </div>
      </form>
    </SettingCard>
  );
}
