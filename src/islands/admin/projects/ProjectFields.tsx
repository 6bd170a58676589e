/**
 * The fields of a project's details (name, client, start and end dates, description), used by the
 * "New project" dialog and by the project page's edit-in-place form. Validation is the shared
 * schema's (`projectCreateSchema` / `projectPatchSchema`), loaded on first validation. The
 * optional description field also serves surveys and mission groups (`DescriptionField`).
 */
import type { FieldErrors, UseFormRegister, UseFormRegisterReturn } from 'react-hook-form';
import { PROGRAMME_LIMITS } from '../../../shared/projects.ts';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { m } from '../../../shared/i18n.ts';

/** The form's values: the API's payload fields (dates `YYYY-MM-DD` or null). */
export interface ProjectValues {
  name: string;
  client: string;
  description: string;
  startsAt: string | null;
  endsAt: string | null;
}

export const PROJECT_FIELD_NAMES = ['name', 'client', 'description', 'startsAt', 'endsAt'] as const;

const dateOrNull = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** The labelled controls; `idPrefix` keeps ids unique when two forms are on a page. */
export function ProjectFields({
  register,
  errors,
  idPrefix,
}: {
  register: UseFormRegister<ProjectValues>;
  errors: FieldErrors<ProjectValues>;
  idPrefix: string;
}) {
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <FormField id={`${idPrefix}-name`} label={m.projects_field_name()} error={errors.name?.message} className="sm:col-span-2">
        {(c) => <Input {...c} autoComplete="off" maxLength={PROGRAMME_LIMITS.nameMax + 20} {...register('name')} />}
      </FormField>
      <FormField
        id={`${idPrefix}-client`}
        label={m.projects_field_client()}
        hint={m.projects_optional()}
        error={errors.client?.message}
        className="sm:col-span-2"
      >
        {(c) => <Input {...c} autoComplete="organization" maxLength={PROGRAMME_LIMITS.clientMax + 20} {...register('client')} />}
      </FormField>
      <FormField id={`${idPrefix}-starts`} label={m.projects_field_start_date()} hint={m.projects_optional()} error={errors.startsAt?.message}>
        {(c) => <Input {...c} type="date" {...register('startsAt', { setValueAs: dateOrNull })} />}
      </FormField>
      <FormField id={`${idPrefix}-ends`} label={m.projects_field_end_date()} hint={m.projects_optional()} error={errors.endsAt?.message}>
        {(c) => <Input {...c} type="date" {...register('endsAt', { setValueAs: dateOrNull })} />}
      </FormField>
      <DescriptionField
        id={`${idPrefix}-description`}
        description={m.projects_field_description_help()}
        rows={4}
        error={errors.description?.message}
        registration={register('description')}
        className="sm:col-span-2"
      />
    </div>
  );
}

/** The optional "Description" of a project, survey or mission group; `description` says who reads it. */
export function DescriptionField({
  id,
  description,
  rows,
  error,
  registration,
  className,
}: {
  id: string;
  description: string;
  rows: number;
  error: string | undefined;
  registration: UseFormRegisterReturn;
  className?: string;
}) {
  return (
    <FormField id={id} label={m.projects_field_description()} hint={m.projects_optional()} description={description} error={error} className={className}>
      {(c) => <Textarea {...c} rows={rows} {...registration} />}
    </FormField>
  );
}
