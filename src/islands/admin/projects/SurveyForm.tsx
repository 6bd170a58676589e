/**
 * /admin/projects/{projectId}/surveys/new and …/surveys/{surveyId}/edit: one form. Title,
 * description, kind (a published form with its version, or an Alchemer link with "Trust returns"),
 * points, estimated minutes, opens/closes (date and time in the admin's time zone, sent as ISO
 * with the offset), status, and the title's and description's translations (`TranslationsField.tsx`). Validation is the shared schema's (`surveyCreateSchema` /
 * `surveyPatchSchema`); the API's 400 field messages land beside the same fields. An edit sends
 * only what changed.
 */
import { useId } from 'react';
import { Controller } from 'react-hook-form';
import type { AdminSurvey, SurveyKind } from '../../../shared/surveys.ts';
import { ITEM_TEXT_FIELDS, PROGRAMME_LIMITS } from '../../../shared/projects.ts';
import { FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import type { CardChoice, EditorValues } from './EditorFields.tsx';
import { ChoiceCards, FormChoiceField, PointsField, ScheduleFields, SwitchField, TitleField, wholeNumber } from './EditorFields.tsx';
import { EditorShell, editorIsland, useEditorForm, type EditorProps } from './EditorShell.tsx';
import { numberOrNull } from './logic.ts';
import { changedFields, normalizeSurvey } from './payload.ts';
import { DescriptionField } from './ProjectFields.tsx';
import { TranslationsField, type TranslationsErrors } from './TranslationsField.tsx';
import { m } from '../../../shared/i18n.ts';

/** The form's values: the API's payload fields. */
export type SurveyValues = EditorValues & Pick<AdminSurvey, 'description' | 'translations' | 'kind' | 'externalUrl' | 'trustReturns' | 'estimatedMinutes'>;

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
  'translations',
] as const;

const kindChoices = (): readonly CardChoice<SurveyKind>[] => [
  { value: 'native', label: m.projects_survey_kind_native(), description: m.projects_survey_kind_native_description() },
  { value: 'external', label: m.projects_survey_kind_external(), description: m.projects_survey_kind_external_description() },
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
    translations: survey?.translations ?? {},
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
      Promise.all([import('../../../shared/schemas/surveys.ts'), import('../../../shared/zod.ts')]).then(([schemas, { z }]) =>
        z.preprocess((values: SurveyValues) => normalizeSurvey(values), survey ? schemas.surveyPatchSchema : schemas.surveyCreateSchema),
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
  const [title, description] = watch(['title', 'description']);

  return (
    <EditorShell
      subject="survey"
      project={project}
      existing={survey}
      subtitle={m.projects_survey_subtitle({ project: project.name })}
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
          description={m.projects_survey_description_help()}
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
            legend={m.projects_survey_kind()}
            note={answered ? m.projects_survey_kind_locked() : null}
            choices={kindChoices()}
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
          <FormField id={`${id}-url`} label={m.projects_survey_link()} description={m.projects_survey_link_description()} error={errors.externalUrl?.message}>
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
              <SwitchField id={`${id}-trust`} label={m.projects_survey_trust_returns()} checked={field.value} onCheckedChange={field.onChange}>
                {m.projects_survey_trust_returns_description()}
              </SwitchField>
            )}
          />
        </div>
      )}

      <div className="grid gap-5 sm:grid-cols-2">
        <PointsField description={m.projects_survey_points_help()} />
        <FormField
          id={`${id}-minutes`}
          label={m.projects_survey_minutes_label()}
          hint={m.projects_optional()}
          description={m.projects_survey_minutes_help()}
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

      <Controller
        control={control}
        name="translations"
        render={({ field }) => (
          <TranslationsField
            fields={ITEM_TEXT_FIELDS.survey}
            sources={{ title, description }}
            value={field.value}
            onChange={field.onChange}
            errors={errors.translations as TranslationsErrors | undefined}
          />
        )}
      />
    </EditorShell>
  );
}
