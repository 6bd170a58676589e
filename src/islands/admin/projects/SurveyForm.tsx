/**
 * /admin/projects/{projectId}/surveys/new and …/surveys/{surveyId}/edit: one form. Title,
 * description, kind (a published form with its version, or an Alchemer link with "Trust returns"),
 * points, estimated minutes, opens/closes (date and time in the admin's time zone, sent as ISO
 * with the offset) and status. Validation is the shared schema's (`surveyCreateSchema` /
 * `surveyPatchSchema`); the API's 400 field messages land beside the same fields. An edit sends
 * only what changed.
 */
import { useId, useState } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import type { ActivityStatus, AdminProject, AdminSurvey, SurveyKind } from '../../../shared/programme.ts';
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
import { Textarea } from '../../../components/ui/textarea.tsx';
import { FormPicker, MomentField, SaveBar, StatusField } from './ActivityFields.tsx';
import { Breadcrumbs, LoadFailed, NotFound, ScreenHeader, ScreenSkeleton, useResource, useRouteIds } from './kit.tsx';
import { numberOrNaN, numberOrNull } from './logic.ts';
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
  const ids = useRouteIds(mode === 'new' ? '/admin/projects/:projectId/surveys/new' : '/admin/projects/:projectId/surveys/:surveyId/edit');
  const project = useResource<AdminProject>(ids ? `/api/admin/projects/${ids.projectId}` : null);
  const survey = useResource<AdminSurvey>(ids && mode === 'edit' ? `/api/admin/surveys/${ids.surveyId}` : null);

  const surveyReady = mode === 'new' || survey.resource.status === 'ready';
  if (ids === undefined || (ids && (project.resource.status === 'loading' || (mode === 'edit' && survey.resource.status === 'loading')))) {
    return <ScreenSkeleton label={mode === 'new' ? 'Loading…' : 'Loading the survey…'} cards={[16, 20, 14]} />;
  }
  const wrongProject = mode === 'edit' && survey.resource.status === 'ready' && ids !== null && survey.resource.data.projectId !== ids.projectId;
  if (ids === null || project.resource.status === 'missing' || survey.resource.status === 'missing' || wrongProject) {
    return (
      <NotFound
        title={mode === 'new' || project.resource.status === 'missing' ? 'No such project' : 'No such survey'}
        href="/admin#projects"
        linkLabel="All projects"
      >
        It does not exist. It may have been mistyped in the address.
      </NotFound>
    );
  }
  if (project.resource.status === 'error')
    return <LoadFailed title="The project could not be loaded" message={project.resource.message} onRetry={project.reload} />;
  if (survey.resource.status === 'error')
    return <LoadFailed title="The survey could not be loaded" message={survey.resource.message} onRetry={survey.reload} />;
  if (project.resource.status !== 'ready' || !surveyReady) return null;
  const existing = survey.resource.status === 'ready' ? survey.resource.data : null;
  return <SurveyEditor project={project.resource.data} survey={existing} />;
}

function SurveyEditor({ project, survey }: { project: AdminProject; survey: AdminSurvey | null }) {
  const id = useId();
  const [alert, setAlert] = useState<string | null>(null);
  const initial = surveyValues(survey);
  const projectHref = `/admin/projects/${project.id}`;
  const surveyHref = survey ? `${projectHref}/surveys/${survey.id}` : null;
  const answered = survey !== null && survey.counts.started > 0;

  // The other kind's fields are cleared before validation (a link typed, then "A Fieldwork form" chosen).
  const [resolver] = useState(() => {
    const base = lazyZodResolver<SurveyValues>(() =>
      import('../../../shared/schemas/programme.ts').then((m) => (survey ? m.surveyPatchSchema : m.surveyCreateSchema)),
    );
    const normalized: Resolver<SurveyValues> = (values, context, options) => base(normalizeSurvey(values), context, options);
    return normalized;
  });

  const {
    register,
    handleSubmit,
    setError,
    control,
    watch,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<SurveyValues>({ resolver, defaultValues: initial });
  const kind = watch('kind');

  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    try {
      if (survey) {
        const changes = changedFields(normalizeSurvey(initial), values);
        if (Object.keys(changes).length > 0) await apiSend<AdminSurvey>('PATCH', `/api/admin/surveys/${survey.id}`, changes);
        toast({ title: 'Survey saved' });
        await navigateTo(surveyHref ?? projectHref);
      } else {
        const created = await apiSend<AdminSurvey>('POST', `/api/admin/projects/${project.id}/surveys`, values);
        toast({ title: `“${created.title}” created` });
        await navigateTo(`${projectHref}/surveys/${created.id}`);
      }
    } catch (error) {
      if (!handleSessionLost(error)) setAlert(applyApiError(error, setError, SURVEY_FIELDS));
    }
  });

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4">
      {survey ? (
        <p className="text-sm text-muted-foreground">
          <a href={surveyHref ?? projectHref} className="font-medium text-primary underline-offset-4 hover:underline">
            {survey.title}
          </a>{' '}
          in{' '}
          <a href={projectHref} className="text-primary underline-offset-4 hover:underline">
            {project.name}
          </a>
        </p>
      ) : (
        <div>
          <Breadcrumbs items={[{ label: 'Dashboard', href: '/admin' }, { label: project.name, href: projectHref }, { label: 'New survey' }]} />
          <ScreenHeader title="New survey" subtitle={`In ${project.name}. Members answer it on Fieldwork (a form) or on Alchemer (a link).`} />
        </div>
      )}
      <Card className="p-5 sm:p-6">
        <form noValidate aria-label={survey ? 'Edit survey' : 'New survey'} onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-8">
          {alert && <Alert variant="destructive">{alert}</Alert>}

          <div className="flex flex-col gap-5">
            <FormField id={`${id}-title`} label="Title" description="Members see it on their home page." error={errors.title?.message}>
              {(c) => <Input {...c} autoComplete="off" maxLength={PROGRAMME_LIMITS.titleMax + 20} {...register('title')} />}
            </FormField>
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
                <RadioGroup
                  value={field.value}
                  onValueChange={(value) => field.onChange(value === 'external' ? 'external' : 'native')}
                  disabled={answered}
                  aria-label="Kind"
                  className="gap-3 sm:grid-cols-2"
                >
                  <KindChoice
                    id={`${id}-native`}
                    value="native"
                    current={field.value}
                    label="A Fieldwork form"
                    description="Members answer a published form here; the results and responses are shown on the survey page."
                  />
                  <KindChoice
                    id={`${id}-external`}
                    value="external"
                    current={field.value}
                    label="An Alchemer survey"
                    description="Members go to Alchemer with an anonymous reference and come back when they finish."
                  />
                </RadioGroup>
              </fieldset>
            )}
          />

          {kind === 'native' ? (
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
                      pinned={
                        survey && survey.kind === 'native' && survey.formId !== null && survey.formVersion !== null
                          ? { formId: survey.formId, formVersion: survey.formVersion }
                          : null
                      }
                      locked={answered ? 'Members have started this survey: it keeps its form (a newer version can still be chosen).' : null}
                    />
                  )}
                />
              )}
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
                        On: a member who comes back on the Finished link gets the points at once. Off: the points wait until Alchemer's webhook confirms the
                        outcome (or the completes are checked against Alchemer's export). A member who passes the Finished link to another could let them claim
                        it without finishing, so turn it on only when that risk is acceptable.
                      </p>
                    </div>
                  </div>
                )}
              />
            </div>
          )}

          <div className="grid gap-5 sm:grid-cols-2">
            <FormField id={`${id}-points`} label="Points" description="Earned on submitting." error={errors.points?.message}>
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
            name="status"
            render={({ field, fieldState }) => (
              <StatusField id={`${id}-status`} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
            )}
          />
          {errors.kind?.message && <FieldError id={`${id}-kind-error`}>{errors.kind.message}</FieldError>}
          {errors.trustReturns?.message && <FieldError id={`${id}-trust-error`}>{errors.trustReturns.message}</FieldError>}

          <SaveBar submitting={isSubmitting} label={survey ? 'Save changes' : 'Create survey'} cancelHref={surveyHref ?? projectHref} dirty={isDirty} />
        </form>
      </Card>
    </div>
  );
}

function KindChoice({ id, value, current, label, description }: { id: string; value: SurveyKind; current: SurveyKind; label: string; description: string }) {
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
