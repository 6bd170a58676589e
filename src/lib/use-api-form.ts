/**
 * The one way a form talks to the API: react-hook-form validated by a shared zod schema (loaded
 * lazily, see lazy-resolver.ts), an alert for what no field shows, and the API's field messages
 * put beside their fields (form-errors.ts).
 *
 *   const { register, onSubmit, alert, formState } = useApiForm<LoginInput>({
 *     schema: () => import('../../shared/schemas/auth.ts').then((m) => m.loginSchema),
 *     defaultValues: { email: '', password: '' },
 *     submit: (values) => apiSend('POST', '/api/auth/login', values),
 *   });
 *
 * `submit` may set the alert itself (a sign-in that did not stick) through `setAlert`; an error it
 * throws goes to `describeError` first (a screen-specific sentence, or `undefined` for the usual
 * handling: field messages and the alert).
 */
import { useState, type BaseSyntheticEvent, type Dispatch, type SetStateAction } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { lazyZodResolver } from './lazy-resolver.ts';
import { applyApiError } from './form-errors.ts';

type SchemaLoader = Parameters<typeof lazyZodResolver>[0];

export interface ApiFormOptions<T extends FieldValues> {
  schema: SchemaLoader;
  defaultValues: DefaultValues<T>;
  submit: (values: T, form: ApiForm<T>) => Promise<unknown>;
  /** The fields the API's messages may name (the default: those of defaultValues). */
  fields?: readonly Path<T>[];
  /** A sentence for an error this screen words itself; undefined for the usual handling. */
  describeError?: (error: unknown) => string | null | undefined;
}

export type ApiForm<T extends FieldValues> = UseFormReturn<T> & {
  alert: string | null;
  setAlert: Dispatch<SetStateAction<string | null>>;
  onSubmit: (event?: BaseSyntheticEvent) => Promise<void>;
};

export function useApiForm<T extends FieldValues>({ schema, defaultValues, submit, fields, describeError }: ApiFormOptions<T>): ApiForm<T> {
  const [alert, setAlert] = useState<string | null>(null);
  // One resolver for the form's life: it keeps the loaded schema.
  const [resolver] = useState(() => lazyZodResolver<T>(schema));
  const form = useForm<T>({ resolver, defaultValues });
  const names = fields ?? (Object.keys(defaultValues ?? {}) as Path<T>[]);
  const api: ApiForm<T> = {
    ...form,
    alert,
    setAlert,
    onSubmit: form.handleSubmit(async (values) => {
      setAlert(null);
      try {
        await submit(values, api);
      } catch (error) {
        const described = describeError?.(error);
        setAlert(described !== undefined ? described : applyApiError(error, form.setError, names));
      }
    }),
  };
  return api;
}
