/**
 * /admin/projects/{projectId}/missions/new and …/missions/{missionId}/edit: one form. Title,
 * instructions (Markdown with a preview and "Insert image"), the published form and its version
 * (as surveys), points, opens/closes in the admin's time zone, review (manual or automatic),
 * entries (min, max, and at most N a day: 1 makes a diary) and status. Validation is the shared
 * schema's (`missionCreateSchema` / `missionPatchSchema`); the API's field messages land beside
 * the fields. An edit sends only what changed.
 */
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { ActivityStatus, AdminMission, AdminProject, ReviewMode } from '../../../shared/programme.ts';
import { PROGRAMME_LIMITS } from '../../../shared/programme.ts';
import { apiSend } from '../../../lib/api.ts';
import { applyApiError } from '../../../lib/form-errors.ts';
import { lazyZodResolver } from '../../../lib/lazy-resolver.ts';
import { navigateTo } from '../../../lib/navigation.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { cn } from '../../../lib/utils.ts';
import { toast } from '../../../stores/toasts.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { RadioGroup, RadioGroupItem } from '../../../components/ui/radio-group.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { FormPicker, MomentField, SaveBar, StatusField } from './ActivityFields.tsx';
import { Breadcrumbs, LoadFailed, NotFound, ScreenHeader, ScreenSkeleton, useResource, useRouteIds } from './kit.tsx';
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
  const ids = useRouteIds(mode === 'new' ? '/admin/projects/:projectId/missions/new' : '/admin/projects/:projectId/missions/:missionId/edit');
  const project = useResource<AdminProject>(ids ? `/api/admin/projects/${ids.projectId}` : null);
  const mission = useResource<AdminMission>(ids && mode === 'edit' ? `/api/admin/missions/${ids.missionId}` : null);

  if (ids === undefined || (ids && (project.resource.status === 'loading' || (mode === 'edit' && mission.resource.status === 'loading')))) {
    return <ScreenSkeleton label={mode === 'new' ? 'Loading…' : 'Loading the mission…'} cards={[22, 16, 14]} />;
  }
  const wrongProject = mode === 'edit' && mission.resource.status === 'ready' && ids !== null && mission.resource.data.projectId !== ids.projectId;
  if (ids === null || project.resource.status === 'missing' || mission.resource.status === 'missing' || wrongProject) {
    return (
      <NotFound
        title={mode === 'new' || project.resource.status === 'missing' ? 'No such project' : 'No such mission'}
        href="/admin#projects"
        linkLabel="All projects"
      >
        It does not exist. It may have been mistyped in the address.
      </NotFound>
    );
  }
  if (project.resource.status === 'error')
    return <LoadFailed title="The project could not be loaded" message={project.resource.message} onRetry={project.reload} />;
  if (mission.resource.status === 'error')
    return <LoadFailed title="The mission could not be loaded" message={mission.resource.message} onRetry={mission.reload} />;
  if (project.resource.status !== 'ready' || (mode === 'edit' && mission.resource.status !== 'ready')) return null;
  return <MissionEditor project={project.resource.data} mission={mission.resource.status === 'ready' ? mission.resource.data : null} />;
}

function MissionEditor({ project, mission }: { project: AdminProject; mission: AdminMission | null }) {
  const id = useId();
  const [alert, setAlert] = useState<string | null>(null);
  const initial = missionValues(mission);
  const projectHref = `/admin/projects/${project.id}`;
  const missionHref = mission ? `${projectHref}/missions/${mission.id}` : null;
  const answered = mission !== null && mission.counts.started > 0;

  const {
    register,
    handleSubmit,
    setError,
    control,
    watch,
    setValue,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<MissionValues>({
    resolver: lazyZodResolver(() => import('../../../shared/schemas/programme.ts').then((m) => (mission ? m.missionPatchSchema : m.missionCreateSchema))),
    defaultValues: initial,
  });
  const perDay = watch('entries.perDay');
  const max = watch('entries.max');

  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    try {
      if (mission) {
        const changes = changedFields(initial, values);
        if (Object.keys(changes).length > 0) await apiSend<AdminMission>('PATCH', `/api/admin/missions/${mission.id}`, changes);
        toast({ title: 'Mission saved' });
        await navigateTo(missionHref ?? projectHref);
      } else {
        const created = await apiSend<AdminMission>('POST', `/api/admin/projects/${project.id}/missions`, values);
        toast({ title: `“${created.title}” created` });
        await navigateTo(`${projectHref}/missions/${created.id}`);
      }
    } catch (error) {
      if (!handleSessionLost(error)) setAlert(applyApiError(error, setError, MISSION_FIELDS));
    }
  });

  const entriesError = errors.entries?.message ?? errors.entries?.root?.message;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4">
      {mission ? (
        <p className="text-sm text-muted-foreground">
          <a href={missionHref ?? projectHref} className="font-medium text-primary underline-offset-4 hover:underline">
            {mission.title}
          </a>{' '}
          in{' '}
          <a href={projectHref} className="text-primary underline-offset-4 hover:underline">
            {project.name}
          </a>
        </p>
      ) : (
        <div>
          <Breadcrumbs items={[{ label: 'Dashboard', href: '/admin' }, { label: project.name, href: projectHref }, { label: 'New mission' }]} />
          <ScreenHeader
            title="New mission"
            subtitle={`In ${project.name}. A task members do with a form: photos, texts, ratings; once, several times, or one entry a day.`}
          />
        </div>
      )}
      <Card className="p-5 sm:p-6">
        <form noValidate aria-label={mission ? 'Edit mission' : 'New mission'} onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-8">
          {alert && <Alert variant="destructive">{alert}</Alert>}

          <FormField id={`${id}-title`} label="Title" description="Members see it on their home page." error={errors.title?.message}>
            {(c) => <Input {...c} autoComplete="off" maxLength={PROGRAMME_LIMITS.titleMax + 20} {...register('title')} />}
          </FormField>

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

          <Controller
            control={control}
            name="formId"
            render={({ field, fieldState }) => (
              <Controller
                control={control}
                name="formVersion"
                render={({ field: versionField, fieldState: versionState }) => (
                  <FormPicker
                    id={`${id}-form`}
                    value={{ formId: field.value, formVersion: versionField.value }}
                    onChange={(next) => {
                      field.onChange(next.formId);
                      versionField.onChange(next.formVersion);
                    }}
                    error={fieldState.error?.message ?? versionState.error?.message}
                    pinned={mission ? { formId: mission.formId, formVersion: mission.formVersion } : null}
                    locked={answered ? 'Members have started this mission: it keeps its form (a newer version can still be chosen).' : null}
                  />
                )}
              />
            )}
          />

          <FormField id={`${id}-points`} label="Points" description="Earned for the mission." error={errors.points?.message}>
            {(c) => (
              <Input
                {...c}
                type="number"
                inputMode="numeric"
                min={0}
                max={PROGRAMME_LIMITS.pointsMax}
                step={1}
                className="sm:w-40"
                {...register('points', { setValueAs: numberOrNaN })}
              />
            )}
          </FormField>

          <div className="grid gap-5 md:grid-cols-2">
            <Controller
              control={control}
              name="opensAt"
              render={({ field, fieldState }) => (
                <MomentField
                  id={`${id}-opens`}
                  label="Opens at"
                  description="Empty: open as soon as it is live."
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={fieldState.error?.message}
                  defaultTime="09:00"
                />
              )}
            />
            <Controller
              control={control}
              name="closesAt"
              render={({ field, fieldState }) => (
                <MomentField
                  id={`${id}-closes`}
                  label="Closes at"
                  description="Empty: open until closed by hand."
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={fieldState.error?.message}
                  defaultTime="23:59"
                />
              )}
            />
          </div>

          <Controller
            control={control}
            name="review"
            render={({ field, fieldState }) => (
              <fieldset className="flex flex-col gap-2">
                <legend className="mb-2 text-sm font-medium">Review</legend>
                <RadioGroup
                  value={field.value}
                  onValueChange={(value) => field.onChange(value === 'automatic' ? 'automatic' : 'manual')}
                  aria-label="Review"
                  className="gap-3 sm:grid-cols-2"
                >
                  <Choice
                    id={`${id}-manual`}
                    value="manual"
                    current={field.value}
                    label="Manual"
                    description="A moderator approves each submission, or asks for changes."
                  />
                  <Choice
                    id={`${id}-automatic`}
                    value="automatic"
                    current={field.value}
                    label="Automatic"
                    description="Submissions are approved as they arrive."
                  />
                </RadioGroup>
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

          <Controller
            control={control}
            name="status"
            render={({ field, fieldState }) => (
              <StatusField id={`${id}-status`} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
            )}
          />

          <SaveBar submitting={isSubmitting} label={mission ? 'Save changes' : 'Create mission'} cancelHref={missionHref ?? projectHref} dirty={isDirty} />
        </form>
      </Card>
    </div>
  );
}

function Choice({ id, value, current, label, description }: { id: string; value: string; current: string; label: string; description: string }) {
  return (
    <label htmlFor={id} className={cn('flex cursor-pointer items-start gap-3 rounded-lg border p-4', current === value ? 'border-primary' : 'border-border')}>
      <RadioGroupItem id={id} value={value} className="mt-0.5" aria-labelledby={`${id}-label`} aria-describedby={`${id}-description`} />
      <span className="flex flex-col gap-1">
        <span id={`${id}-label`} className="text-sm font-medium">
          {label}
        </span>
        <span id={`${id}-description`} className="text-sm text-muted-foreground">
          {description}
        </span>
      </span>
    </label>
  );
}
