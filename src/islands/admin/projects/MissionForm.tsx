/**
 * /admin/projects/{projectId}/missions/new and …/missions/{missionId}/edit: one form. Title,
 * instructions (Markdown with a preview and "Insert image"), the published form and its version
 * (as surveys), points, opens/closes in the admin's time zone, review (manual or automatic),
 * entries (min, max, and at most N a day: 1 makes a diary), the product id review exports use
 * (GTIN, EAN or SKU), status, and the title's and instructions' translations (`TranslationsField.tsx`). Validation is the shared
 * schema's (`missionCreateSchema` / `missionPatchSchema`); the API's field messages land beside
 * the fields. An edit sends only what changed.
 */
import { useId } from 'react';
import { Controller } from 'react-hook-form';
import type { AdminMission, ReviewMode } from '../../../shared/missions.ts';
import { ITEM_TEXT_FIELDS, PROGRAMME_LIMITS } from '../../../shared/projects.ts';
import { FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import type { CardChoice, EditorValues } from './EditorFields.tsx';
import { ChoiceCards, FormChoiceField, PointsField, ScheduleFields, SwitchField, TitleField, wholeNumber } from './EditorFields.tsx';
import { EditorShell, editorIsland, useEditorForm, type EditorProps } from './EditorShell.tsx';
import { numberOrNaN } from './logic.ts';
import { MarkdownEditor } from './MarkdownEditor.tsx';
import { changedFields } from './payload.ts';
import { TranslationsField, type TranslationsErrors } from './TranslationsField.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';

/** The form's values: the API's payload fields. */
export type MissionValues = EditorValues & Pick<AdminMission, 'instructions' | 'translations' | 'review' | 'entries' | 'productId'>;

const MISSION_FIELDS = [
  'title',
  'instructions',
  'formId',
  'formVersion',
  'points',
  'productId',
  'opensAt',
  'closesAt',
  'review',
  'entries',
  'entries.min',
  'entries.max',
  'entries.perDay',
  'status',
  'translations',
] as const;

const reviewChoices = (): readonly CardChoice<ReviewMode>[] => [
  { value: 'manual', label: m.projects_mission_review_manual(), description: m.projects_mission_review_manual_description() },
  { value: 'automatic', label: m.projects_mission_review_automatic(), description: m.projects_mission_review_automatic_description() },
];

/** The entries' two bounds, side by side. */
const ENTRY_BOUNDS = [
  { name: 'min', label: m.projects_mission_entries_at_least },
  { name: 'max', label: m.projects_mission_entries_at_most },
] as const;

function missionValues(mission: AdminMission | null): MissionValues {
  return {
    title: mission?.title ?? '',
    instructions: mission?.instructions ?? '',
    formId: mission?.formId ?? null,
    formVersion: mission?.formVersion ?? null,
    points: mission?.points ?? 0,
    productId: mission?.productId ?? null,
    opensAt: mission?.opensAt ?? null,
    closesAt: mission?.closesAt ?? null,
    review: mission?.review ?? 'manual',
    entries: { min: mission?.entries.min ?? 1, max: mission?.entries.max ?? 1, perDay: mission?.entries.perDay ?? null },
    status: mission?.status ?? 'draft',
    translations: mission?.translations ?? {},
  };
}

/** The island of both routes (its `mode` says which). */
export default editorIsland<AdminMission>('mission', [22, 16, 14], MissionEditor);

function MissionEditor({ project, item: mission, answered }: EditorProps<AdminMission>) {
  const id = useId();
  const initial = missionValues(mission);

  const form = useEditorForm<MissionValues>({
    subject: 'mission',
    project,
    existing: mission,
    schema: () => import('../../../shared/schemas/missions.ts').then((schemas) => (mission ? schemas.missionPatchSchema : schemas.missionCreateSchema)),
    defaultValues: initial,
    fields: MISSION_FIELDS,
    changes: (values) => changedFields(initial, values),
  });
  const {
    register,
    control,
    watch,
    setValue,
    formState: { errors },
  } = form;
  const perDay = watch('entries.perDay');
  const max = watch('entries.max');
  const [title, instructions] = watch(['title', 'instructions']);

  const entriesError = errors.entries?.message ?? errors.entries?.root?.message;

  return (
    <EditorShell subject="mission" project={project} existing={mission} subtitle={m.projects_mission_subtitle({ project: project.name })} form={form}>
      <TitleField />

      <Controller
        control={control}
        name="instructions"
        render={({ field, fieldState }) => (
          <MarkdownEditor
            id={`${id}-instructions`}
            label={m.projects_mission_instructions()}
            description={m.projects_mission_instructions_help()}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            textareaRef={field.ref}
            error={fieldState.error?.message}
          />
        )}
      />

      <FormChoiceField subject="mission" pinned={mission ? { formId: mission.formId, formVersion: mission.formVersion } : null} answered={answered} />

      <PointsField description={m.projects_mission_points_help()} />

      <FormField
        id={`${id}-product-id`}
        label={m.projects_mission_product_id()}
        hint={m.projects_optional()}
        description={m.projects_mission_product_id_help()}
        error={errors.productId?.message}
        className="sm:w-80"
      >
        {(c) => (
          <Input
            {...c}
            autoComplete="off"
            spellCheck={false}
            maxLength={50}
            {...register('productId', { setValueAs: (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null) })}
          />
        )}
      </FormField>

      <ScheduleFields />

      <Controller
        control={control}
        name="review"
        render={({ field, fieldState }) => (
          <ChoiceCards
            idPrefix={id}
            legend={m.projects_detail_review()}
            choices={reviewChoices()}
            value={field.value}
            onChange={field.onChange}
            size="lg"
            className="sm:grid-cols-2"
            error={fieldState.error?.message}
            errorId={`${id}-review-error`}
          />
        )}
      />

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-sm font-medium">{m.projects_detail_entries()}</legend>
        <p className="-mt-2 text-sm text-muted-foreground">{m.projects_mission_entries_help()}</p>
        <div className="flex flex-wrap gap-5">
          {ENTRY_BOUNDS.map((bound) => (
            <FormField key={bound.name} id={`${id}-${bound.name}`} label={bound.label()} error={errors.entries?.[bound.name]?.message}>
              {(c) => (
                <Input
                  {...c}
                  {...wholeNumber(1, PROGRAMME_LIMITS.entriesMax)}
                  className="w-32"
                  {...register(`entries.${bound.name}`, { setValueAs: numberOrNaN })}
                />
              )}
            </FormField>
          ))}
        </div>
        <div className="flex flex-col gap-3 rounded-lg border border-border p-4">
          <SwitchField
            id={`${id}-per-day`}
            label={m.projects_mission_per_day_switch()}
            checked={perDay !== null}
            onCheckedChange={(on) => setValue('entries.perDay', on ? 1 : null, { shouldDirty: true })}
          >
            {typeof max === 'number' && max > 1 ? m.projects_mission_per_day_help_days({ max: formatCount(max) }) : m.projects_mission_per_day_help()}
          </SwitchField>
          {perDay !== null && (
            <FormField id={`${id}-per-day-count`} label={m.projects_mission_per_day_count()} error={errors.entries?.perDay?.message} className="sm:w-56">
              {(c) => (
                <Input {...c} {...wholeNumber(1, PROGRAMME_LIMITS.perDayMax)} className="w-32" {...register('entries.perDay', { setValueAs: numberOrNaN })} />
              )}
            </FormField>
          )}
        </div>
        {entriesError && <FieldError id={`${id}-entries-error`}>{entriesError}</FieldError>}
      </fieldset>

      <Controller
        control={control}
        name="translations"
        render={({ field }) => (
          <TranslationsField
            fields={ITEM_TEXT_FIELDS.mission}
            sources={{ title, instructions }}
            value={field.value}
            onChange={field.onChange}
            errors={errors.translations as TranslationsErrors | undefined}
          />
        )}
      />
    </EditorShell>
  );
}
