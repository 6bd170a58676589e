import { useSyncExternalStore } from 'react';
import type { z } from 'zod';
import type { addressSchema } from '../../shared/schemas/account.ts';
import type { AccountUser } from '../../platform/api.ts';
import { countries, type Country } from '../../lib/countries.ts';
import { FormField } from '../../components/ui/form-field.tsx';
import { controlClasses, Input } from '../../components/ui/input.tsx';
import { cn } from '../../lib/utils.ts';
import { m } from '../../shared/i18n.ts';
import { EditCard } from './EditCard.tsx';
import { useAccountForm } from './use-account-form.ts';
import { AccountPending, InertForm, PLACEHOLDER_USER, useAccount } from './use-account.tsx';

type AddressValues = z.input<typeof addressSchema>;
const FIELDS = ['line1', 'line2', 'city', 'region', 'postalCode', 'country'] as const;

/** /account/edit/address: a postal address; the country from a list (ISO 3166-1 alpha-2). */
export default function AddressScreen() {
  const { load, reload, setUser } = useAccount();
  if (load.status !== 'ready') {
    return (
      <AccountPending load={load} reload={reload} skeleton={<InertForm>{(onSaved) => <AddressForm user={PLACEHOLDER_USER} onSaved={onSaved} />}</InertForm>} />
    );
  }
  return <AddressForm user={load.data.user} onSaved={setUser} />;
}

const NO_COUNTRIES: readonly Country[] = [];
const subscribeToNothing = () => () => {};

/**
 * The country list of this browser. The prerendered page has none (the build's names and the
 * browser's may differ, and hydration must match); the browser fills it in at once.
 */
function useCountries(): readonly Country[] {
  return useSyncExternalStore(subscribeToNothing, countries, () => NO_COUNTRIES);
}

function valuesOf(user: AccountUser): AddressValues {
  const a = user.address;
  return {
    line1: a?.line1 ?? '',
    line2: a?.line2 ?? '',
    city: a?.city ?? '',
    region: a?.region ?? '',
    postalCode: a?.postalCode ?? '',
    country: a?.country ?? '',
  };
}

function AddressForm({ user, onSaved }: { user: AccountUser; onSaved: (user: AccountUser) => void }) {
  const list = useCountries();
  const form = useAccountForm<AddressValues>({
    schema: () => import('../../shared/schemas/account.ts').then((schemas) => schemas.addressSchema),
    user,
    valuesOf,
    method: 'PUT',
    path: '/api/account/address',
    fields: FIELDS,
    savedMessage: m.account_address_saved(),
    onSaved,
  });
  const { register } = form;
  const { errors } = form.formState;

  return (
    <EditCard description={m.account_address_description()} form={form}>
      <FormField id="address-line1" label={m.account_address_line1()} description={m.account_address_line1_description()} error={errors.line1?.message}>
        {(c) => <Input {...c} autoComplete="address-line1" {...register('line1')} />}
      </FormField>
      <FormField id="address-line2" label={m.account_address_line2()} hint={m.account_address_optional()} error={errors.line2?.message}>
        {(c) => <Input {...c} autoComplete="address-line2" {...register('line2')} />}
      </FormField>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="address-city" label={m.account_address_city()} error={errors.city?.message}>
          {(c) => <Input {...c} autoComplete="address-level2" {...register('city')} />}
        </FormField>
        <FormField id="address-region" label={m.account_address_region()} hint={m.account_address_optional()} error={errors.region?.message}>
          {(c) => <Input {...c} autoComplete="address-level1" {...register('region')} />}
        </FormField>
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="address-postal-code" label={m.account_address_postal_code()} error={errors.postalCode?.message}>
          {(c) => <Input {...c} autoComplete="postal-code" autoCapitalize="characters" {...register('postalCode')} />}
        </FormField>
        <FormField id="address-country" label={m.account_address_country()} error={errors.country?.message}>
          {(c) => (
            // A native select: the phone's own picker, type-to-find on desktop, and cheap with ~250 countries.
            <select {...c} autoComplete="country" className={cn(controlClasses, 'appearance-auto pe-2')} {...register('country')}>
              <option value="">{m.account_address_choose_country()}</option>
              {list.map((country) => (
                <option key={country.code} value={country.code}>
                  {country.name}
                </option>
              ))}
            </select>
          )}
        </FormField>
      </div>
    </EditCard>
  );
}
