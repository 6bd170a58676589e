/**
 * /admin/projects/{projectId}/missions/new and …/missions/{missionId}/edit: one form. Title,
 * instructions (Markdown with a preview and "Insert image"), the published form and its version
 * (as surveys), points, opens/closes in the admin's time zone, review (manual or automatic),
 * entries (min, max, and at most N a day: 1 makes a diary) and status. Validation is the shared
 * schema's (`missionCreateSchema` / `missionPatchSchema`); the API's field messages land beside
 * the fields. An edit sends only what changed.
 */
import { ProjectItemLoader } from './ProjectItemLoader.tsx';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { AdminMission, ReviewMode } from '../../../shared/missions.ts';
import type { ActivityStatus, AdminProject } from '../../../shared/projects.ts';
import { PROGRAMME_LIMITS } from '../../../shared/projects.ts';
import { lazyZodResolver } from '../../../lib/lazy-resolver.ts';
import { FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { RadioCard, RadioCardGroup } from '../../../components/ui/radio-card.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { FormChoiceField, PointsField, ScheduleFields, TitleField } from './EditorFields.tsx';
import { EditorShell } from './EditorShell.tsx';
import { numberOrNaN } from './logic.ts';
import { MarkdownEditor } from './MarkdownEditor.tsx';
import { changedFields } from './payload.ts';

/** The form's values: the API's payload fields. */
export interface MissionValues {
  title: string;
  instructions: string;
  formId: number | null;
  formVersion: number | null;
  points: number;
  opensAt: string | null;
  closesAt: string | null;
  review: ReviewMode;
  entries: { min: number; max: number; perDay: number | null };
  status: ActivityStatus;
}

const MISSION_FIELDS = [
  'title',
  'instructions',
  'formId',
  'formVersion',
  'points',
  'opensAt',
  'closesAt',
  'review',
  'entries',
  'entries.min',
  'entries.max',
  'entries.perDay',
  'status',
] as const;

function missionValues(mission: AdminMission | null): MissionValues {
  return {
    title: mission?.title ?? '',
    instructions: mission?.instructions ?? '',
    formId: mission?.formId ?? null,
    formVersion: mission?.formVersion ?? null,
    points: mission?.points ?? 0,
    opensAt: mission?.opensAt ?? null,
    closesAt: mission?.closesAt ?? null,
    review: mission?.review ?? 'manual',
    entries: { min: mission?.entries.min ?? 1, max: mission?.entries.max ?? 1, perDay: mission?.entries.perDay ?? null },
    status: mission?.status ?? 'draft',
  };
}

/** The island of both routes; `mode` says which. */
export default function MissionForm({ mode }: { mode: 'new' | 'edit' }) {
  return (
    <ProjectItemLoader<AdminMission>
      pattern={mode === 'new' ? '/admin/projects/:projectId/missions/new' : '/admin/projects/:projectId/missions/:missionId/edit'}
      itemParam={mode === 'new' ? null : 'missionId'}
      itemPath={(id) => `/api/admin/missions/${id}`}
      subject="mission"
      skeleton={{ label: mode === 'new' ? 'Loading…' : 'Loading the mission…', cards: [22, 16, 14] }}
      notFound="editor"
    >
      {(project, mission) => <MissionEditor project={project} mission={mission} />}
    </ProjectItemLoader>
  );
}

function MissionEditor({ project, mission }: { project: AdminProject; mission: AdminMission | null }) {
  const id = useId();
  const initial = missionValues(mission);
  const answered = mission !== null && mission.counts.started > 0;

  const form = useForm<MissionValues>({
    resolver: lazyZodResolver(() => import('../../../shared/schemas/missions.ts').then((m) => (mission ? m.missionPatchSchema : m.missionCreateSchema))),
    defaultValues: initial,
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

  const entriesError = errors.entries?.message ?? errors.entries?.root?.message;

  return (
    <EditorShell
      subject="mission"
      project={project}
      existing={mission}
      subtitle={`In ${project.name}. A task members do with a form: photos, texts, ratings; once, several times, or one entry a day.`}
      form={form}
      fields={MISSION_FIELDS}
      changes={(values) => changedFields(initial, values)}
    >
      <TitleField />

      <Controller
        control={control}
        name="instructions"
        render={({ field, fieldState }) => (
          <MarkdownEditor
            id={`${id}-instructions`}
            label="Instructions"
            description="What members should do, shown above the form. Add pictures with “Insert image”."
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            textareaRef={field.ref}
            error={fieldState.error?.message}
          />
        )}
      />

      <FormChoiceField subject="mission" pinned={mission ? { formId: mission.formId, formVersion: mission.formVersion } : null} answered={answered} />

      <PointsField description="Earned for the mission." />

      <ScheduleFields />

      <Controller
        control={control}
        name="review"
        render={({ field, fieldState }) => (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-sm font-medium">Review</legend>
            <RadioCardGroup
              value={field.value}
              onValueChange={(value) => field.onChange(value === 'automatic' ? 'automatic' : 'manual')}
              aria-label="Review"
              className="sm:grid-cols-2"
            >
              <RadioCard id={`${id}-manual`} value="manual" size="lg" label="Manual" description="A moderator approves each submission, or asks for changes." />
              <RadioCard id={`${id}-automatic`} value="automatic" size="lg" label="Automatic" description="Submissions are approved as they arrive." />
            </RadioCardGroup>
            {fieldState.error?.message && <FieldError id={`${id}-review-error`}>{fieldState.error.message}</FieldError>}
          </fieldset>
        )}
      />

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-sm font-medium">Entries</legend>
        <p className="-mt-2 text-sm text-muted-foreground">How many times each member does the mission. A draft entry counts until it is deleted.</p>
        <div className="flex flex-wrap gap-5">
          <FormField id={`${id}-min`} label="At least" error={errors.entries?.min?.message}>
            {(c) => (
              <Input
                {...c}
                type="number"
                inputMode="numeric"
                min={1}
                max={PROGRAMME_LIMITS.entriesMax}
                step={1}
                className="w-32"
                {...register('entries.min', { setValueAs: numberOrNaN })}
              />
            )}
          </FormField>
          <FormField id={`${id}-max`} label="At most" error={errors.entries?.max?.message}>
            {(c) => (
              <Input
                {...c}
                type="number"
                inputMode="numeric"
                min={1}
                max={PROGRAMME_LIMITS.entriesMax}
                step={1}
                className="w-32"
                {...register('entries.max', { setValueAs: numberOrNaN })}
              />
            )}
          </FormField>
        </div>
        <div className="flex flex-col gap-3 rounded-lg border border-border p-4">
          <div className="flex items-start gap-3">
            <Switch
              id={`${id}-per-day`}
              checked={perDay !== null}
              onCheckedChange={(on) => setValue('entries.perDay', on ? 1 : null, { shouldDirty: true })}
              aria-describedby={`${id}-per-day-description`}
              className="mt-0.5"
            />
            <div className="flex flex-col gap-1">
              <Label htmlFor={`${id}-per-day`}>Limit entries per day</Label>
              <p id={`${id}-per-day-description`} className="text-sm text-muted-foreground">
                Days are the member's own calendar days. At most 1 a day makes a diary{typeof max === 'number' && max > 1 ? ` of up to ${max} days` : ''}.
              </p>
            </div>
          </div>
          {perDay !== null && (
            <FormField id={`${id}-per-day-count`} label="At most this many a day" error={errors.entries?.perDay?.message} className="sm:w-56">
              {(c) => (
                <Input
                  {...c}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={PROGRAMME_LIMITS.perDayMax}
                  step={1}
                  className="w-32"
                  {...register('entries.perDay', { setValueAs: numberOrNaN })}
                />
              )}
            </FormField>
          )}
        </div>
        {entriesError && <FieldError id={`${id}-entries-error`}>{entriesError}</FieldError>}
      </fieldset>
    </EditorShell>
  );
}
