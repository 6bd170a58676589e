import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { ProfileInput } from '../../shared/schemas/account.ts';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { apiSend, type AccountUser } from '../../platform/api.ts';
import { applyApiError } from '../../lib/form-errors.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { EditCard } from './EditCard.tsx';
import { AccountPending, InertForm, PLACEHOLDER_USER, useAccount } from './use-account.tsx';

/** /account/edit/profile: first and last name (also shown in the header). */
export default function ProfileScreen() {
  const { load, reload, setUser } = useAccount();
  if (load.status !== 'ready') {
    return (
      <AccountPending load={load} reload={reload} skeleton={<InertForm>{(onSaved) => <ProfileForm user={PLACEHOLDER_USER} onSaved={onSaved} />}</InertForm>} />
    );
  }
  return <ProfileForm user={load.data.user} onSaved={setUser} />;
}

function ProfileForm({ user, onSaved }: { user: AccountUser; onSaved: (user: AccountUser) => void }) {
  const [alert, setAlert] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ProfileInput>({
    resolver: lazyZodResolver(() => import('../../shared/schemas/account.ts').then((m) => m.profileSchema)),
    defaultValues: { firstName: user.firstName, lastName: user.lastName },
  });

  // A new edit makes the last "saved" message stale.
  useEffect(() => {
    if (isDirty) setSaved(null);
  }, [isDirty]);

  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    setSaved(null);
    try {
      const result = await apiSend<{ user: AccountUser }>('PATCH', '/api/account/profile', values);
      onSaved(result.user);
      reset({ firstName: result.user.firstName, lastName: result.user.lastName });
      setSaved('Your profile is saved.');
    } catch (error) {
      if (!handleSessionLost(error)) setAlert(applyApiError(error, setError, ['firstName', 'lastName']));
    }
  });

  return (
    <EditCard description="Your name as other people in Fieldwork see it." onSubmit={onSubmit} submitting={isSubmitting} saved={saved} alert={alert}>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="profile-first-name" label="First name" error={errors.firstName?.message}>
          {(c) => <Input {...c} autoComplete="given-name" {...register('firstName')} />}
        </FormField>
        <FormField id="profile-last-name" label="Last name" error={errors.lastName?.message}>
          {(c) => <Input {...c} autoComplete="family-name" {...register('lastName')} />}
        </FormField>
      </div>
    </EditCard>
  );
}
