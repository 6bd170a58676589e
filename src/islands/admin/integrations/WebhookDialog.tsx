/**
 * "Add endpoint" / "Edit endpoint" (admins): the address, a description, the events (each with a
 * line saying when it is sent) and an optional project, as `POST` / `PATCH /api/admin/webhooks`
 * take them. Checked by the API's own schema before it is sent (`form-schema.ts`); the API's field
 * messages (a refused address: "This address is not reachable from the internet") are shown on
 * their fields. An edit sends only what changed.
 */
import { useId } from 'react';
import { Controller } from 'react-hook-form';
import type { WebhookCreated, WebhookEndpoint } from '../../../shared/webhooks.ts';
import { apiSend } from '../../../platform/api.ts';
import { CheckboxField } from '../../../components/ui/checkbox.tsx';
import { FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { FilterSelect } from '../admin-kit.tsx';
import { FormDialog, useDialogForm } from '../form-dialog.tsx';
import { m } from '../../../shared/i18n.ts';
import { Code, isFieldlessRefusal, onFormFields, problemText } from './kit.tsx';
import {
  projectSelectOptions,
  EVENT_TEXT,
  EVENT_TYPES,
  fieldText,
  WEBHOOK_FORM_FIELDS,
  webhookBody,
  webhookFormValues,
  webhookPatch,
  type ProjectOption,
  type WebhookFormValues,
} from './logic.ts';

export function WebhookDialog({
  open,
  onOpenChange,
  endpoint,
  projects,
  onCreated,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The endpoint edited, or null for a new one. */
  endpoint: WebhookEndpoint | null;
  projects: readonly ProjectOption[];
  onCreated: (created: WebhookCreated) => void;
  onSaved: (saved: WebhookEndpoint) => void;
}) {
  const id = useId();
  const initial = webhookFormValues(endpoint);
  const form = useDialogForm<WebhookFormValues>(
    { open, onOpenChange },
    {
      schema: () => import('./form-schema.ts').then((module) => module.webhookFormSchema),
      defaultValues: initial,
      fields: WEBHOOK_FORM_FIELDS,
      submit: async (values, api) => {
        try {
          if (endpoint) {
            const patch = webhookPatch(initial, values);
            if (Object.keys(patch).length > 0) onSaved(await apiSend<WebhookEndpoint>('PATCH', `/api/admin/webhooks/${endpoint.id}`, patch));
          } else {
            onCreated(await apiSend<WebhookCreated>('POST', '/api/admin/webhooks', webhookBody(values)));
          }
          onOpenChange(false);
        } catch (error) {
          // Refusals no field shows, in our words; the rest as every form shows them.
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
  const eventsError = fieldText(errors.events?.message ?? errors.events?.root?.message);

  return (
    <FormDialog
      form={form}
      title={endpoint ? m.integrations_webhook_edit_title() : m.integrations_webhook_add_title()}
      description={m.integrations_webhook_dialog_description()}
      submitLabel={endpoint ? m.integrations_save() : m.integrations_webhook_add()}
    >
      <FormField id={`${id}-url`} label={m.integrations_webhook_url()} description={m.integrations_webhook_url_help()} error={fieldText(errors.url?.message)}>
        {(c) => <Input {...c} type="url" dir="ltr" inputMode="url" autoComplete="off" spellCheck={false} placeholder="https://" {...register('url')} />}
      </FormField>
      <FormField
        id={`${id}-description`}
        label={m.integrations_webhook_description()}
        hint={m.integrations_optional()}
        error={fieldText(errors.description?.message)}
      >
        {(c) => <Input {...c} autoComplete="off" {...register('description')} />}
      </FormField>
      <Controller
        control={control}
        name="events"
        render={({ field }) => (
          <fieldset className="flex flex-col gap-3" aria-describedby={eventsError ? `${id}-events-error` : `${id}-events-help`}>
            <legend className="mb-1 text-sm font-medium">{m.integrations_webhook_events()}</legend>
            <p id={`${id}-events-help`} className="-mt-1 text-sm text-muted-foreground">
              {m.integrations_webhook_events_help()}
            </p>
            {EVENT_TYPES.map((type) => (
              <CheckboxField
                key={type}
                id={`${id}-event-${type}`}
                label={<Code className="text-sm">{type}</Code>}
                description={EVENT_TEXT[type]()}
                checked={field.value.includes(type)}
                aria-invalid={eventsError ? true : undefined}
                onCheckedChange={(checked) => field.onChange(checked === true ? [...field.value, type] : field.value.filter((value) => value !== type))}
              />
            ))}
            {eventsError && <FieldError id={`${id}-events-error`}>{eventsError}</FieldError>}
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
      <p className="-mt-2 text-sm text-muted-foreground">{m.integrations_webhook_project_help()}</p>
      {errors.project?.message && <FieldError id={`${id}-project-error`}>{fieldText(errors.project.message)}</FieldError>}
    </FormDialog>
  );
}
