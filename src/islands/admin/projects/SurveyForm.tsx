/**
 * /admin/projects/{projectId}/surveys/new and …/surveys/{surveyId}/edit: one form. Title,
 * description, kind (a published form with its version, or an Alchemer link with "Trust returns"),
 * points, estimated minutes, opens/closes (date and time in the admin's time zone, sent as ISO
 * with the offset) and status. Validation is the shared schema's (`surveyCreateSchema` /
 * `surveyPatchSchema`); the API's 400 field messages land beside the same fields. An edit sends
 * only what changed.
 */
import { ProjectItemLoader } from './ProjectItemLoader.tsx';
import { useId, useState } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import type { ActivityStatus, AdminProject } from '../../../shared/projects.ts';
import type { AdminSurvey, SurveyKind } from '../../../shared/surveys.ts';
import { PROGRAMME_LIMITS } from '../../../shared/projects.ts';
import { lazyZodResolver } from '../../../lib/lazy-resolver.ts';
import { FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { RadioCard, RadioCardGroup } from '../../../components/ui/radio-card.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { FormChoiceField, PointsField, ScheduleFields, TitleField } from './EditorFields.tsx';
import { EditorShell } from './EditorShell.tsx';
import { numberOrNull } from './logic.ts';
import { changedFields, normalizeSurvey } from './payload.ts';

/** The form's values: the API's payload fields. */
export interface SurveyValues {
  title: string;
  description: string;
  kind: SurveyKind;
  formId: number | null;
  formVersion: number | null;
  externalUrl: string | null;
  trustReturns: boolean;
  points: number;
  estimatedMinutes: number | null;
  opensAt: string | null;
  closesAt: string | null;
  status: ActivityStatus;
}

const SURVEY_FIELDS = [
  'title',
  'description',
  'kind',
  'formId',
  'formVersion',
  'externalUrl',
  'trustReturns',
  'points',
  'estimatedMinutes',
  'opensAt',
  'closesAt',
  'status',
] as const;

function surveyValues(survey: AdminSurvey | null): SurveyValues {
  return {
    title: survey?.title ?? '',
    description: survey?.description ?? '',
    kind: survey?.kind ?? 'native',
    formId: survey?.formId ?? null,
    formVersion: survey?.formVersion ?? null,
    externalUrl: survey?.externalUrl ?? null,
    trustReturns: survey?.trustReturns ?? false,
    points: survey?.points ?? 0,
    estimatedMinutes: survey?.estimatedMinutes ?? null,
    opensAt: survey?.opensAt ?? null,
    closesAt: survey?.closesAt ?? null,
    status: survey?.status ?? 'draft',
  };
}

/** The island of both routes; `mode` says which. */
export default function SurveyForm({ mode }: { mode: 'new' | 'edit' }) {
  return (
    <ProjectItemLoader<AdminSurvey>
      pattern={mode === 'new' ? '/admin/projects/:projectId/surveys/new' : '/admin/projects/:projectId/surveys/:surveyId/edit'}
      itemParam={mode === 'new' ? null : 'surveyId'}
      itemPath={(id) => `/api/admin/surveys/${id}`}
      subject="survey"
      skeleton={{ label: mode === 'new' ? 'Loading…' : 'Loading the survey…', cards: [16, 20, 14] }}
      notFound="editor"
    >
      {(project, survey) => <SurveyEditor project={project} survey={survey} />}
    </ProjectItemLoader>
  );
}

function SurveyEditor({ project, survey }: { project: AdminProject; survey: AdminSurvey | null }) {
  const id = useId();
  const initial = surveyValues(survey);
  const answered = survey !== null && survey.counts.started > 0;

  // The other kind's fields are cleared before validation (a link typed, then "A Fieldwork form" chosen).
  const [resolver] = useState(() => {
    const base = lazyZodResolver<SurveyValues>(() =>
      import('../../../shared/schemas/surveys.ts').then((m) => (survey ? m.surveyPatchSchema : m.surveyCreateSchema)),
    );
    const normalized: Resolver<SurveyValues> = (values, context, options) => base(normalizeSurvey(values), context, options);
    return normalized;
  });

  const form = useForm<SurveyValues>({ resolver, defaultValues: initial });
  const {
    register,
    control,
    watch,
    formState: { errors },
  } = form;
  const kind = watch('kind');

  return (
    <EditorShell
      subject="survey"
      project={project}
      existing={survey}
      subtitle={`In ${project.name}. Members answer it on Fieldwork (a form) or on Alchemer (a link).`}
      form={form}
      fields={SURVEY_FIELDS}
      changes={(values) => changedFields(normalizeSurvey(initial), values)}
      afterStatus={
        <>
          {errors.kind?.message && <FieldError id={`${id}-kind-error`}>{errors.kind.message}</FieldError>}
          {errors.trustReturns?.message && <FieldError id={`${id}-trust-error`}>{errors.trustReturns.message}</FieldError>}
        </>
      }
    >
      <div className="flex flex-col gap-5">
        <TitleField />
        <FormField
          id={`${id}-description`}
          label="Description"
          hint="(optional)"
          description="A line or two on what it is about."
          error={errors.description?.message}
        >
          {(c) => <Textarea {...c} rows={3} {...register('description')} />}
        </FormField>
      </div>

      <Controller
        control={control}
        name="kind"
        render={({ field }) => (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-sm font-medium">Kind</legend>
            {answered && <p className="text-sm text-muted-foreground">Members have started it: the kind can no longer change.</p>}
            <RadioCardGroup
              value={field.value}
              onValueChange={(value) => field.onChange(value === 'external' ? 'external' : 'native')}
              disabled={answered}
              aria-label="Kind"
              className="sm:grid-cols-2"
            >
              <RadioCard
                id={`${id}-native`}
                value="native"
                size="lg"
                label="A Fieldwork form"
                description="Members answer a published form here; the results and responses are shown on the survey page."
              />
              <RadioCard
                id={`${id}-external`}
                value="external"
                size="lg"
                label="An Alchemer survey"
                description="Members go to Alchemer with an anonymous reference and come back when they finish."
              />
            </RadioCardGroup>
          </fieldset>
        )}
      />

      {kind === 'native' ? (
        <FormChoiceField
          subject="survey"
          pinned={
            survey && survey.kind === 'native' && survey.formId !== null && survey.formVersion !== null
              ? { formId: survey.formId, formVersion: survey.formVersion }
              : null
          }
          answered={answered}
        />
      ) : (
        <div className="flex flex-col gap-5">
          <FormField
            id={`${id}-url`}
            label="Alchemer survey link"
            description="The survey's share link, starting with https://. Fieldwork adds the member's anonymous reference (pid) to it."
            error={errors.externalUrl?.message}
          >
            {(c) => (
              <Input
                {...c}
                type="url"
                inputMode="url"
                autoComplete="off"
                placeholder="https://survey.alchemer.com/s3/1234567/My-survey"
                {...register('externalUrl', { setValueAs: (value: unknown) => (typeof value === 'string' ? value : null) })}
              />
            )}
          </FormField>
          <Controller
            control={control}
            name="trustReturns"
            render={({ field }) => (
              <div className="flex items-start gap-3">
                <Switch
                  id={`${id}-trust`}
                  checked={field.value}
                  onCheckedChange={field.onChange}
                  aria-describedby={`${id}-trust-description`}
                  className="mt-0.5"
                />
                <div className="flex flex-col gap-1">
                  <Label htmlFor={`${id}-trust`}>Trust returns</Label>
                  <p id={`${id}-trust-description`} className="text-sm text-muted-foreground">
                    On: a member who comes back on the Finished link gets the points at once. Off: the points wait until Alchemer's webhook confirms the outcome
                    (or the completes are checked against Alchemer's export). A member who passes the Finished link to another could let them claim it without
                    finishing, so turn it on only when that risk is acceptable.
                  </p>
                </div>
              </div>
            )}
          />
        </div>
      )}

      <div className="grid gap-5 sm:grid-cols-2">
        <PointsField description="Earned on submitting." />
        <FormField
          id={`${id}-minutes`}
          label="Estimated minutes"
          hint="(optional)"
          description="How long it takes, shown to members."
          error={errors.estimatedMinutes?.message}
        >
          {(c) => (
            <Input
              {...c}
              type="number"
              inputMode="numeric"
              min={1}
              max={PROGRAMME_LIMITS.estimatedMinutesMax}
              step={1}
              className="sm:w-40"
              {...register('estimatedMinutes', { setValueAs: numberOrNull })}
            />
          )}
        </FormField>
      </div>

      <ScheduleFields />
    </EditorShell>
  );
}
