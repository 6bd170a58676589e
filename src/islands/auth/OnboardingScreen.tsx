import { navigate } from 'astro:transitions/client';
import type { z } from 'zod';
import type { onboardSchema } from '../../shared/schemas/auth.ts';
import { apiSend, withQuery, type CurrentUser, type TokenInfo } from '../../platform/api.ts';
import { deviceTimeZone } from '../../shared/time-zone.ts';
import { afterSignIn } from '../../shared/route-rules.ts';
import { useApiForm } from '../../lib/use-api-form.ts';
import { useTokenCheck } from '../../lib/token-page.ts';
import { setAuthenticatedUser } from '../../stores/auth.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { PasswordRequirements } from '../../components/PasswordRequirements.tsx';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { TermsField } from './TermsField.tsx';
import { TokenCheckFailed, TokenChecking, TokenInvalid } from './TokenStates.tsx';

/** /onboarding/{token}: check the invitation link first, then the form. */
export default function OnboardingScreen() {
  const { check, retry } = useTokenCheck('onboarding');
  switch (check.status) {
    case 'checking':
      return <TokenChecking label="Checking your invitation link…" />;
    case 'invalid':
      return (
        <TokenInvalid
          title="This invitation link is invalid or has expired"
          action={
            <a href="/register" className={buttonVariants()}>
              Get a new link
            </a>
          }
        >
          <p>Invitation links work once and for 7 days. Enter your details again on the registration page and we will email you a fresh link.</p>
        </TokenInvalid>
      );
    case 'error':
      return <TokenCheckFailed message={check.message} onRetry={retry} />;
    case 'valid':
      return <OnboardingForm token={check.token} info={check.info} />;
  }
}

/**
 * The onboarding form's schema; terms required only when the account still lacks them. Loaded on
 * the form's first validation with zod (lib/lazy-resolver.ts), as every other form does.
 */
async function schemaFor(info: TokenInfo) {
  const [{ z }, { acceptTermsSchema, onboardSchema }] = await Promise.all([import('../../shared/zod.ts'), import('../../shared/schemas/auth.ts')]);
  return info.needsTerms ? onboardSchema.and(z.object({ acceptTerms: acceptTermsSchema })) : onboardSchema;
}

type OnboardValues = z.input<typeof onboardSchema>;

function OnboardingForm({ token, info }: { token: string; info: TokenInfo }) {
  const {
    register,
    control,
    onSubmit,
    alert,
    watch,
    formState: { errors, isSubmitting },
  } = useApiForm<OnboardValues>({
    schema: () => schemaFor(info),
    defaultValues: {
      password: '',
      confirmPassword: '',
      ...(info.needsName ? { firstName: info.firstName, lastName: info.lastName } : {}),
    },
    fields: ['password', 'confirmPassword', 'firstName', 'lastName', 'acceptTerms'],
    submit: async (values) => {
      // The device's time zone: the calendar day the participant's diary entries count on.
      const body: OnboardValues = { password: values.password, confirmPassword: values.confirmPassword, timeZone: deviceTimeZone() };
      if (info.needsName) {
        body.firstName = values.firstName;
        body.lastName = values.lastName;
      }
      if (info.needsTerms) body.acceptTerms = values.acceptTerms;
      const { user } = await apiSend<{ user: CurrentUser }>('POST', withQuery('/api/auth/onboard', { token }), body);
      // docs/product.md §4: onboarding sets the state from the returned user; no refetch.
      setAuthenticatedUser(user);
      // Home: moderators and admins (invited staff) land on the admin dashboard, as after sign-in.
      await navigate(afterSignIn(null, user.role), { history: 'replace' });
    },
  });
  const password = watch('password');
  const greetingName = info.firstName.trim();

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <div className="-mt-1 flex flex-col gap-1">
        <p className="text-lg font-medium">{greetingName ? `Hello ${greetingName}!` : 'Hello!'}</p>
        <p className="text-sm text-muted-foreground">
          Choose a password to finish setting up your account for <strong className="font-semibold wrap-anywhere text-foreground">{info.email}</strong>.
        </p>
      </div>
      <FormAlert message={alert} />
      {info.needsName && (
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField id="onboard-first-name" label="First name" error={errors.firstName?.message}>
            {(c) => <Input {...c} autoComplete="given-name" {...register('firstName')} />}
          </FormField>
          <FormField id="onboard-last-name" label="Last name" error={errors.lastName?.message}>
            {(c) => <Input {...c} autoComplete="family-name" {...register('lastName')} />}
          </FormField>
        </div>
      )}
      {/* For password managers: the account this password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={info.email} readOnly hidden />
      <FormField id="onboard-password" label="Password" error={errors.password?.message} extraDescribedBy="onboard-password-rules">
        {(c) => <PasswordInput {...c} autoComplete="new-password" {...register('password')} />}
      </FormField>
      <PasswordRequirements id="onboard-password-rules" password={password} />
      <FormField id="onboard-confirm-password" label="Confirm password" error={errors.confirmPassword?.message}>
        {(c) => <PasswordInput {...c} autoComplete="new-password" {...register('confirmPassword')} />}
      </FormField>
      {info.needsTerms && <TermsField id="onboard-accept-terms" control={control} name="acceptTerms" error={errors.acceptTerms?.message} />}
      <Button type="submit" size="lg" loading={isSubmitting} className="w-full">
        Finish and sign in
      </Button>
    </form>
  );
}
