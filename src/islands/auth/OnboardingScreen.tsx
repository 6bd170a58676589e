import { navigate } from 'astro:transitions/client';
import type { z } from 'zod';
import type { onboardSchema } from '../../shared/schemas/auth.ts';
import { apiSend, withQuery, type CurrentUser } from '../../platform/api.ts';
import { deviceTimeZone } from '../../shared/time-zone.ts';
import { INVITATION_USED_MESSAGE } from '../../shared/tokens.ts';
import { afterSignIn } from '../../shared/route-rules.ts';
import { useApiForm } from '../../lib/use-api-form.ts';
import { greetingFor, tokenFromLocation, validToken } from '../../lib/token-check.ts';
import { setAuthenticatedUser } from '../../stores/auth.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { Outcome } from '../../components/Outcome.tsx';
import { PasswordRequirements } from '../../components/PasswordRequirements.tsx';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { TermsField } from './TermsField.tsx';
import { TokenInvalid } from './TokenStates.tsx';
import { m } from '../../shared/i18n.ts';

/** The invitation link is unknown, used or expired (prerendered by the page, `TokenCheck.astro`). */
export function InvalidInvitationLink() {
  return (
    <TokenInvalid
      title={m.auth_onboarding_invalid_title()}
      action={
        <a href="/register" className={buttonVariants()}>
          {m.auth_onboarding_invalid_action()}
        </a>
      }
    >
      <p>{m.auth_onboarding_invalid_text()}</p>
    </TokenInvalid>
  );
}

/** The invitation was used and its account is set up (prerendered by the page, `TokenCheck.astro`): sign in. */
export function UsedInvitationLink() {
  return (
    <Outcome
      tone="info"
      focus={false}
      title={INVITATION_USED_MESSAGE}
      action={
        <a href="/login" className={buttonVariants()}>
          {m.auth_sign_in()}
        </a>
      }
    >
      <p>
        {m.auth_onboarding_used_text()}{' '}
        <a href="/forgot-password" className="font-medium text-primary underline underline-offset-4 hover:no-underline">
          {m.auth_onboarding_used_link()}
        </a>
        {m.auth_onboarding_used_after()}
      </p>
    </Outcome>
  );
}

/**
 * The onboarding form's schema; terms required only when the account still lacks them. Loaded on
 * the form's first validation with zod (lib/lazy-resolver.ts), as every other form does.
 */
async function schemaFor(needsTerms: boolean) {
  const [{ z }, { acceptTermsSchema, onboardSchema }] = await Promise.all([import('../../shared/zod.ts'), import('../../shared/schemas/auth.ts')]);
  return needsTerms ? onboardSchema.and(z.object({ acceptTerms: acceptTermsSchema })) : onboardSchema;
}

type OnboardValues = z.input<typeof onboardSchema>;

/**
 * /onboarding/{token}: choose a password (and the names and terms acceptance the account still
 * lacks), then signed in. The page checks the invitation link and shows this form
 * (`components/TokenCheck.astro`, `lib/token-check.ts`, which also writes in the greeting, the
 * address and which parts show); it hydrates when the visitor reaches for it (`client:intent`),
 * reading the same link, so its first render matches the page.
 */
export default function OnboardingScreen() {
  // Null while prerendering: every optional part is rendered, hidden, for the page to show.
  const link = validToken();
  const info = link?.info ?? null;
  const needsName = info?.needsName === true;
  const needsTerms = info?.needsTerms === true;
  const {
    register,
    control,
    onSubmit,
    alert,
    watch,
    formState: { errors, isSubmitting },
  } = useApiForm<OnboardValues>({
    schema: () => schemaFor(needsTerms),
    defaultValues: {
      password: '',
      confirmPassword: '',
      ...(info && needsName ? { firstName: info.firstName, lastName: info.lastName } : {}),
    },
    fields: ['password', 'confirmPassword', 'firstName', 'lastName', 'acceptTerms'],
    submit: async (values) => {
      // The device's time zone: the calendar day the participant's diary entries count on.
      const body: OnboardValues = { password: values.password, confirmPassword: values.confirmPassword, timeZone: deviceTimeZone() };
      if (needsName) {
        body.firstName = values.firstName;
        body.lastName = values.lastName;
      }
      if (needsTerms) body.acceptTerms = values.acceptTerms;
      const token = link?.token ?? tokenFromLocation() ?? '';
      const { user } = await apiSend<{ user: CurrentUser }>('POST', withQuery('/api/auth/onboard', { token }), body);
      // docs/product.md §4: onboarding sets the state from the returned user; no refetch.
      setAuthenticatedUser(user);
      // Home: moderators and admins (invited staff) land on the admin dashboard, as after sign-in.
      await navigate(afterSignIn(null, user.role), { history: 'replace' });
    },
  });
  const password = watch('password');

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <div className="-mt-1 flex flex-col gap-1">
        <p data-token-text="greeting" className="text-lg font-medium">
          {greetingFor(info)}
        </p>
        <p className="text-sm text-muted-foreground">
          {m.auth_onboarding_intro_before()}{' '}
          <strong data-token-text="email" className="font-semibold wrap-anywhere text-foreground">
            {info?.email}
          </strong>
          {m.auth_onboarding_intro_after()}
        </p>
      </div>
      <FormAlert message={alert} />
      {/* The names only when the account lacks them: always rendered (the page shows or hides them), registered only then. */}
      <div data-token-needs="name" hidden={!needsName} className="grid gap-5 sm:grid-cols-2">
        <FormField id="onboard-first-name" label={m.auth_first_name()} error={errors.firstName?.message}>
          {(c) => <Input {...c} autoComplete="given-name" {...(needsName ? register('firstName') : { name: 'firstName' })} />}
        </FormField>
        <FormField id="onboard-last-name" label={m.auth_last_name()} error={errors.lastName?.message}>
          {(c) => <Input {...c} autoComplete="family-name" {...(needsName ? register('lastName') : { name: 'lastName' })} />}
        </FormField>
      </div>
      {/* For password managers: the account this password belongs to. */}
      <input type="email" name="username" autoComplete="username" defaultValue={info?.email ?? ''} readOnly hidden />
      <FormField id="onboard-password" label={m.auth_password()} error={errors.password?.message} extraDescribedBy="onboard-password-rules">
        {(c) => <PasswordInput {...c} autoComplete="new-password" {...register('password')} />}
      </FormField>
      <PasswordRequirements id="onboard-password-rules" password={password} />
      <FormField id="onboard-confirm-password" label={m.auth_onboarding_confirm_password()} error={errors.confirmPassword?.message}>
        {(c) => <PasswordInput {...c} autoComplete="new-password" {...register('confirmPassword')} />}
      </FormField>
      <div data-token-needs="terms" hidden={!needsTerms}>
        <TermsField id="onboard-accept-terms" control={control} name="acceptTerms" error={errors.acceptTerms?.message} />
      </div>
      <Button type="submit" heldBeforeHydration size="lg" loading={isSubmitting} className="w-full">
        {m.auth_onboarding_submit()}
      </Button>
    </form>
  );
}
