/**
 * "New token" (admins): a name, the scopes (each with what it opens), an optional project and how
 * many days it lives, as `POST /api/admin/tokens` takes them. Making a token needs a recent
 * sign-in: the HTTP client asks "Confirm it's you" and sends the call again. The token itself is
 * shown once, by the screen (`OnceDialog`).
 */
import { useId } from 'react';
import { Controller } from 'react-hook-form';
import { API_TOKEN_LIMITS, API_TOKEN_SCOPES, type CreatedApiToken } from '../../../shared/api-tokens.ts';
import { apiSend } from '../../../platform/api.ts';
import { CheckboxField } from '../../../components/ui/checkbox.tsx';
import { FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { FilterSelect } from '../admin-kit.tsx';
import { FormDialog, useDialogForm } from '../form-dialog.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';
import { Code, isFieldlessRefusal, onFormFields, problemText } from './kit.tsx';
import {
  fieldText,
  projectSelectOptions,
  SCOPE_TEXT,
  TOKEN_FORM_DEFAULTS,
  TOKEN_FORM_FIELDS,
  tokenBody,
  type ProjectOption,
  type TokenFormValues,
} from './logic.ts';

export function TokenDialog({
  open,
  onOpenChange,
  projects,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  projects: readonly ProjectOption[];
  onCreated: (created: CreatedApiToken) => void;
}) {
  const id = useId();
  const form = useDialogForm<TokenFormValues>(
    { open, onOpenChange },
    {
      schema: () => import('./form-schema.ts').then((module) => module.tokenFormSchema),
      defaultValues: TOKEN_FORM_DEFAULTS,
      fields: TOKEN_FORM_FIELDS,
      submit: async (values, api) => {
        try {
          onCreated(await apiSend<CreatedApiToken>('POST', '/api/admin/tokens', tokenBody(values)));
          onOpenChange(false);
        } catch (error) {
          if (isFieldlessRefusal(error)) {
            api.setAlert(problemText(error));
            return;
          }
          throw onFormFields(error);
        }
      },
    },
  );
  const {
    register,
    control,
    formState: { errors },
  } = form;
  const projectOptions = projectSelectOptions(projects);
  const scopesError = fieldText(errors.scopes?.message ?? errors.scopes?.root?.message);

  return (
    <FormDialog
      form={form}
      title={m.integrations_token_new_title()}
      description={m.integrations_token_dialog_description()}
      submitLabel={m.integrations_token_create()}
    >
      <FormField id={`${id}-name`} label={m.integrations_token_name()} description={m.integrations_token_name_help()} error={fieldText(errors.name?.message)}>
        {(c) => <Input {...c} autoComplete="off" maxLength={API_TOKEN_LIMITS.nameMax} {...register('name')} />}
      </FormField>
      <Controller
        control={control}
        name="scopes"
        render={({ field }) => (
          <fieldset className="flex flex-col gap-3" aria-describedby={scopesError ? `${id}-scopes-error` : `${id}-scopes-help`}>
            <legend className="mb-1 text-sm font-medium">{m.integrations_token_scopes()}</legend>
            <p id={`${id}-scopes-help`} className="-mt-1 text-sm text-muted-foreground">
              {m.integrations_token_scopes_help()}
            </p>
            {API_TOKEN_SCOPES.map((scope) => (
              <CheckboxField
                key={scope}
                id={`${id}-scope-${scope.replace(':', '-')}`}
                label={<Code className="text-sm">{scope}</Code>}
                description={SCOPE_TEXT[scope]()}
                checked={field.value.includes(scope)}
                aria-invalid={scopesError ? true : undefined}
                onCheckedChange={(checked) => field.onChange(checked === true ? [...field.value, scope] : field.value.filter((value) => value !== scope))}
              />
            ))}
            {scopesError && <FieldError id={`${id}-scopes-error`}>{scopesError}</FieldError>}
          </fieldset>
        )}
      />
      <Controller
        control={control}
        name="project"
        render={({ field }) => (
          <FilterSelect label={m.integrations_project()} value={field.value} options={projectOptions} onChange={field.onChange} className="sm:w-80" />
        )}
      />
      <p className="-mt-2 text-sm text-muted-foreground">{m.integrations_token_project_help()}</p>
      {errors.project?.message && <FieldError id={`${id}-project-error`}>{fieldText(errors.project.message)}</FieldError>}
      <FormField
        id={`${id}-days`}
        label={m.integrations_token_expires_in()}
        description={m.integrations_token_expires_help({
          default: formatCount(API_TOKEN_LIMITS.expiresInDaysDefault),
          max: formatCount(API_TOKEN_LIMITS.expiresInDaysMax),
        })}
        error={fieldText(errors.expiresInDays?.message)}
      >
        {(c) => (
          <Input
            {...c}
            type="number"
            inputMode="numeric"
            min={1}
            max={API_TOKEN_LIMITS.expiresInDaysMax}
            step={1}
            className="w-32"
            {...register('expiresInDays')}
          />
        )}
      </FormField>
    </FormDialog>
  );
}
