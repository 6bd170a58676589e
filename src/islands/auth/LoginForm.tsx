import { navigate } from 'astro:transitions/client';
import type { LoginInput } from '../../shared/schemas/auth.ts';
import { useApiForm } from '../../lib/use-api-form.ts';
import { afterSignIn } from '../../shared/route-rules.ts';
import { ApiError, apiSend, type OkResponse } from '../../platform/api.ts';
import { loadCurrentUser } from '../../stores/auth.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';

const INCORRECT = 'Incorrect email or password';

/** /login: email and password; then the current user is fetched again (docs/product.md §4) and `r` followed. */
export default function LoginForm() {
  const {
    register,
    onSubmit,
    alert,
    formState: { errors, isSubmitting },
  } = useApiForm<LoginInput>({
    schema: () => import('../../shared/schemas/auth.ts').then((m) => m.loginSchema),
    defaultValues: { email: '', password: '' },
    describeError: (error) => (error instanceof ApiError && error.code === 'invalid_credentials' ? INCORRECT : undefined),
    submit: async (values, form) => {
      await apiSend<OkResponse>('POST', '/api/auth/login', values);
      // Sign-in alone does not set the state: ask who we are now.
      const state = await loadCurrentUser();
      if (state.status !== 'authenticated') {
        form.setAlert('You signed in, but this browser did not keep the session. Allow cookies for this site and try again.');
        return;
      }
      const r = new URLSearchParams(location.search).get('r');
      // Moderators and admins land on the admin dashboard unless `r` names another page.
      await navigate(afterSignIn(r, state.user.role), { history: 'replace' });
    },
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-describedby="login-intro">
      <p id="login-intro" className="-mt-1 text-sm text-muted-foreground">
        Welcome back. Sign in to take part in surveys and missions.
      </p>
      <FormAlert message={alert} />
      <FormField id="login-email" label="Email" error={errors.email?.message}>
        {(control) => (
          <Input {...control} type="email" autoComplete="email" inputMode="email" autoCapitalize="none" spellCheck={false} {...register('email')} />
        )}
      </FormField>
      <div className="flex flex-col gap-2">
        <FormField id="login-password" label="Password" error={errors.password?.message}>
          {(control) => <PasswordInput {...control} autoComplete="current-password" {...register('password')} />}
        </FormField>
        <a href="/forgot-password" className="self-end text-sm font-medium text-primary underline-offset-4 hover:underline">
          Forgot password?
        </a>
      </div>
      <Button type="submit" heldBeforeHydration size="lg" loading={isSubmitting} className="w-full">
        Sign in
      </Button>
      <p className="text-center text-sm text-muted-foreground">
        New to Fieldwork?{' '}
        <a href="/register" className="font-medium text-primary underline underline-offset-4 hover:no-underline">
          Create an account
        </a>
      </p>
    </form>
  );
}
