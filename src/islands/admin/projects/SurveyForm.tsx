/**
 * /admin/projects/{projectId}/surveys/new and …/surveys/{surveyId}/edit: one form. Title,
 * description, kind (a published form with its version, or an Alchemer link with "Trust returns"),
 * points, estimated minutes, opens/closes (date and time in the admin's time zone, sent as ISO
 * with the offset) and status. Validation is the shared schema's (`surveyCreateSchema` /
 * `surveyPatchSchema`); the API's 400 field messages land beside the same fields. An edit sends
 * only what changed.
 */
import { useId } from 'react';
import { Controller } from 'react-hook-form';
import type { AdminSurvey, SurveyKind } from '../../../shared/surveys.ts';
import { PROGRAMME_LIMITS } from '../../../shared/projects.ts';
import { FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import type { CardChoice, EditorValues } from './EditorFields.tsx';
import { ChoiceCards, FormChoiceField, PointsField, ScheduleFields, SwitchField, TitleField, wholeNumber } from './EditorFields.tsx';
import { EditorShell, editorIsland, useEditorForm, type EditorProps } from './EditorShell.tsx';
import { numberOrNull } from './logic.ts';
import { changedFields, normalizeSurvey } from './payload.ts';
import { DescriptionField } from './ProjectFields.tsx';

/** The form's values: the API's payload fields. */
export type SurveyValues = EditorValues & Pick<AdminSurvey, 'description' | 'kind' | 'externalUrl' | 'trustReturns' | 'estimatedMinutes'>;

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

const KIND_CHOICES: readonly CardChoice<SurveyKind>[] = [
  {
    value: 'native',
    label: 'A Fieldwork form',
    description: 'Members answer a published form here; the results and responses are shown on the survey page.',
  },
  { value: 'external', label: 'An Alchemer survey', description: 'Members go to Alchemer with an anonymous reference and come back when they finish.' },
];

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

/** The island of both routes (its `mode` says which). */
export default editorIsland<AdminSurvey>('survey', [16, 20, 14], SurveyEditor);

function SurveyEditor({ project, item: survey, answered }: EditorProps<AdminSurvey>) {
  const id = useId();
  const initial = surveyValues(survey);

  const form = useEditorForm<SurveyValues>({
    subject: 'survey',
    project,
    existing: survey,
    // The other kind's fields are cleared before validation (a link typed, then "A Fieldwork form" chosen).
    schema: () =>
      Promise.all([import('../../../shared/schemas/surveys.ts'), import('../../../shared/zod.ts')]).then(([m, { z }]) =>
        z.preprocess((values: SurveyValues) => normalizeSurvey(values), survey ? m.surveyPatchSchema : m.surveyCreateSchema),
      ),
    defaultValues: initial,
    fields: SURVEY_FIELDS,
    changes: (values) => changedFields(normalizeSurvey(initial), values),
  });
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
      afterStatus={
        <>
          {errors.kind?.message && <FieldError id={`${id}-kind-error`}>{errors.kind.message}</FieldError>}
          {errors.trustReturns?.message && <FieldError id={`${id}-trust-error`}>{errors.trustReturns.message}</FieldError>}
        </>
      }
    >
      <div className="flex flex-col gap-5">
        <TitleField />
        <DescriptionField
          id={`${id}-description`}
          description="A line or two on what it is about."
          rows={3}
          error={errors.description?.message}
          registration={register('description')}
        />
      </div>

      <Controller
        control={control}
        name="kind"
        render={({ field }) => (
          <ChoiceCards
            idPrefix={id}
            legend="Kind"
            note={answered ? 'Members have started it: the kind can no longer change.' : null}
            choices={KIND_CHOICES}
            value={field.value}
            onChange={field.onChange}
            disabled={answered}
            size="lg"
            className="sm:grid-cols-2"
          />
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
              <SwitchField id={`${id}-trust`} label="Trust returns" checked={field.value} onCheckedChange={field.onChange}>
                On: a member who comes back on the Finished link gets the points at once. Off: the points wait until Alchemer's webhook confirms the outcome (or
                the completes are checked against Alchemer's export). A member who passes the Finished link to another could let them claim it without
                finishing, so turn it on only when that risk is acceptable.
              </SwitchField>
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
              {...wholeNumber(1, PROGRAMME_LIMITS.estimatedMinutesMax)}
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
