import type { ProfileInput } from '../../shared/schemas/account.ts';
import type { AccountUser } from '../../platform/api.ts';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { m } from '../../shared/i18n.ts';
import { EditCard } from './EditCard.tsx';
import { useAccountForm } from './use-account-form.ts';
import { AccountPending, InertForm, PLACEHOLDER_USER, useAccount } from './use-account.tsx';

/** /account/edit/profile: first and last name (also shown in the header), and the optional year of birth. */
export default function ProfileScreen() {
  const { load, reload, setUser } = useAccount();
  if (load.status !== 'ready') {
    return (
      <AccountPending load={load} reload={reload} skeleton={<InertForm>{(onSaved) => <ProfileForm user={PLACEHOLDER_USER} onSaved={onSaved} />}</InertForm>} />
    );
  }
  return <ProfileForm user={load.data.user} onSaved={setUser} />;
}

/** The field's text as the schema takes it: empty clears (null), digits a number; anything else stays text for the schema's message. */
function birthYearValue(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  const text = value.trim();
  if (text === '') return null;
  return /^\d+$/.test(text) ? Number(text) : text;
}

function ProfileForm({ user, onSaved }: { user: AccountUser; onSaved: (user: AccountUser) => void }) {
  const form = useAccountForm<ProfileInput>({
    schema: () => import('../../shared/schemas/account.ts').then((schemas) => schemas.profileSchema),
    user,
    valuesOf: (u) => ({ firstName: u.firstName, lastName: u.lastName, birthYear: u.birthYear }),
    method: 'PATCH',
    path: '/api/account/profile',
    fields: ['firstName', 'lastName', 'birthYear'],
    savedMessage: m.account_profile_saved(),
    onSaved,
  });
  const { register } = form;
  const { errors } = form.formState;

  return (
    <EditCard description={m.account_profile_description()} form={form}>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="profile-first-name" label={m.account_profile_first_name()} error={errors.firstName?.message}>
          {(c) => <Input {...c} autoComplete="given-name" {...register('firstName')} />}
        </FormField>
        <FormField id="profile-last-name" label={m.account_profile_last_name()} error={errors.lastName?.message}>
          {(c) => <Input {...c} autoComplete="family-name" {...register('lastName')} />}
        </FormField>
        <FormField
          id="profile-birth-year"
          label={m.account_profile_birth_year()}
          description={m.account_profile_birth_year_description()}
          error={errors.birthYear?.message}
        >
          {(c) => (
            <Input
              {...c}
              inputMode="numeric"
              autoComplete="bday-year"
              maxLength={4}
              className="sm:max-w-40"
              {...register('birthYear', { setValueAs: birthYearValue })}
            />
          )}
        </FormField>
      </div>
    </EditCard>
  );
}
