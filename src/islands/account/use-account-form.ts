/**
 * An account edit form (profile, address, preferences): useApiForm plus what the three share — the
 * saved user goes to the account store, the form restarts from what was stored, a "saved" line that
 * a new edit makes stale, and a lost session sends the visitor to sign in.
 */
import { useEffect, useState } from 'react';
import type { DefaultValues, FieldValues, Path } from 'react-hook-form';
import { apiSend, type AccountUser } from '../../platform/api.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { useApiForm, type ApiForm, type ApiFormOptions } from '../../lib/use-api-form.ts';

export interface AccountFormOptions<T extends FieldValues> {
  schema: ApiFormOptions<T>['schema'];
  user: AccountUser;
  /** The form's values from a user (the stored ones, and again after each save). */
  valuesOf: (user: AccountUser) => DefaultValues<T>;
  method: 'PATCH' | 'PUT';
  path: string;
  fields: readonly Path<T>[];
  savedMessage: string;
  onSaved: (user: AccountUser) => void;
}

export function useAccountForm<T extends FieldValues>(options: AccountFormOptions<T>): ApiForm<T> & { saved: string | null } {
  const { schema, user, valuesOf, method, path, fields, savedMessage, onSaved } = options;
  const [saved, setSaved] = useState<string | null>(null);
  const form = useApiForm<T>({
    schema,
    defaultValues: valuesOf(user),
    fields,
    describeError: (error) => (handleSessionLost(error) ? null : undefined),
    submit: async (values, current) => {
      setSaved(null);
      const result = await apiSend<{ user: AccountUser }>(method, path, values);
      onSaved(result.user);
      current.reset(valuesOf(result.user));
      setSaved(savedMessage);
    },
  });
  // A new edit makes the last "saved" line stale.
  const { isDirty } = form.formState;
  useEffect(() => {
    if (isDirty) setSaved(null);
  }, [isDirty]);
  return { ...form, saved };
}
