/**
 * The fields the survey and mission editors share (`EditorShell.tsx` puts them together): the
 * title, the points, the published form and its version (with "Move to version N" on edit), when
 * it opens and closes (a date and a time each in the admin's time zone, sent as ISO with the
 * offset), the status, and the save bar; and the pieces their own fields are made of (described
 * choice cards, a described switch, whole-number inputs). The `…Field` components bound to the
 * editor's form read it from react-hook-form's context (`EditorValues`: the fields both payloads have).
 */
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { Controller, useFormContext } from 'react-hook-form';
import { PROGRAMME_LIMITS, type ActivityStatus } from '../../../shared/projects.ts';
import type { AdminForm, AdminFormList, AdminFormListItem } from '../../../shared/schemas/forms.ts';
import { deviceTimeZone, isoToLocalParts, localPartsToIso, utcOffsetLabel } from '../../../shared/time-zone.ts';
import { withQuery } from '../../../platform/api.ts';
import { formatDate } from '../../../lib/format.ts';
import { useResource } from '../../../lib/resource.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { describedBy, FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { RadioCard, RadioCardGroup } from '../../../components/ui/radio-card.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select.tsx';
import { Bone } from '../../../components/ui/skeleton.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { SearchForm } from '../admin-kit.tsx';
import { numberOrNaN } from './logic.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';

/** The fields every survey and mission form has (the API's payload names). */
export interface EditorValues {
  title: string;
  formId: number | null;
  formVersion: number | null;
  points: number;
  opensAt: string | null;
  closesAt: string | null;
  status: ActivityStatus;
}

/** What the editor edits, in the words its screens use. */
export type EditorSubject = 'survey' | 'mission';

/** The value a half-filled moment gets: not an ISO string, so validation says "Enter a date and time". */
export const INCOMPLETE_MOMENT = 'incomplete';

/** The two inputs of a moment, in order. */
const MOMENT_PARTS = [
  { name: 'date', label: m.projects_moment_date, width: 'w-44' },
  { name: 'time', label: m.projects_moment_time, width: 'w-32' },
] as const;

/**
 * A moment as two inputs (date, time) on the admin's clock. `value` is the ISO moment or null;
 * a date alone takes `defaultTime`; a time alone is reported as incomplete.
 */
export function MomentField({
  id,
  label,
  value,
  onChange,
  onBlur,
  error,
  description,
  defaultTime = '00:00',
}: {
  id: string;
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
  onBlur?: () => void;
  error?: string | undefined;
  description?: ReactNode;
  defaultTime?: string;
}) {
  const timeZone = useMemo(() => deviceTimeZone(), []);
  const [parts, setParts] = useState(() => isoToLocalParts(value === INCOMPLETE_MOMENT ? null : value, timeZone));

  // Follow a value set from outside (a reset), not the echo of what was typed.
  useEffect(() => {
    if (value === INCOMPLETE_MOMENT) return;
    const current = localPartsToIso(parts.date, parts.time, timeZone);
    if (current !== value && !(current === undefined && value === null)) setParts(isoToLocalParts(value, timeZone));
    // Only when the value changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the parts being typed are read, not watched (a half-typed moment must stay); the time zone is fixed
  }, [value]);

  function update(next: { date: string; time: string }) {
    const filled = next.date && !next.time && !parts.time ? { ...next, time: defaultTime } : next;
    setParts(filled);
    const iso = localPartsToIso(filled.date, filled.time, timeZone);
    onChange(iso === undefined ? INCOMPLETE_MOMENT : iso);
  }

  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const aria = { 'aria-invalid': error ? (true as const) : undefined, 'aria-describedby': describedBy(descriptionId, error && errorId) };
  return (
    <fieldset className="flex min-w-0 flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">{label}</legend>
      <p id={descriptionId} className="-mt-1 text-sm text-muted-foreground">
        {description ? <>{description} </> : null}
        {utcOffsetLabel(timeZone) === timeZone
          ? m.projects_moment_time_zone({ zone: timeZone.replaceAll('_', ' ') })
          : m.projects_moment_time_zone_offset({ zone: timeZone.replaceAll('_', ' '), offset: utcOffsetLabel(timeZone) })}
      </p>
      <div className="flex flex-wrap items-end gap-2">
        {MOMENT_PARTS.map((part) => (
          <div key={part.name} className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-${part.name}`} className="text-xs text-muted-foreground">
              {part.label()}
            </Label>
            <Input
              id={`${id}-${part.name}`}
              type={part.name}
              className={part.width}
              value={parts[part.name]}
              onChange={(event) => update({ ...parts, [part.name]: event.target.value })}
              onBlur={onBlur}
              {...aria}
            />
          </div>
        ))}
        {(parts.date || parts.time) && (
          <Button
            variant="ghost"
            onClick={() => {
              setParts({ date: '', time: '' });
              onChange(null);
            }}
          >
            {withNodes((marks) => m.projects_moment_clear(marks), { label: <span className="sr-only">{label.toLowerCase()}</span> })}
          </Button>
        )}
      </div>
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </fieldset>
  );
}

const statusChoices = (): readonly CardChoice<ActivityStatus>[] => [
  { value: 'draft', label: m.projects_status_draft(), description: m.projects_activity_status_draft_description() },
  { value: 'live', label: m.projects_status_live(), description: m.projects_activity_status_live_description() },
  { value: 'closed', label: m.projects_status_closed(), description: m.projects_activity_status_closed_description() },
];

/** One described card of `ChoiceCards`. */
export interface CardChoice<V extends string> {
  value: V;
  label: string;
  description: string;
}

/**
 * A choice of described cards under a legend, which also names the group. A card's id is
 * `{idPrefix}-{value}`; `note` is a line under the legend; `error` stands under the cards.
 */
export function ChoiceCards<V extends string>({
  idPrefix,
  legend,
  choices,
  value,
  onChange,
  size,
  className,
  disabled,
  note,
  error,
  errorId = `${idPrefix}-error`,
}: {
  idPrefix: string;
  legend: string;
  choices: readonly CardChoice<V>[];
  value: V;
  onChange: (value: V) => void;
  size: 'sm' | 'lg';
  className: string;
  disabled?: boolean;
  note?: string | null;
  error?: string | undefined;
  errorId?: string;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      {note && <p className="text-sm text-muted-foreground">{note}</p>}
      <RadioCardGroup
        value={value}
        onValueChange={(next) => {
          const choice = choices.find((candidate) => candidate.value === next);
          if (choice) onChange(choice.value);
        }}
        disabled={disabled}
        aria-label={legend}
        className={className}
      >
        {choices.map((choice) => (
          <RadioCard
            key={choice.value}
            id={`${idPrefix}-${choice.value}`}
            value={choice.value}
            label={choice.label}
            description={choice.description}
            size={size}
          />
        ))}
      </RadioCardGroup>
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </fieldset>
  );
}

export interface FormChoice {
  formId: number | null;
  formVersion: number | null;
}

/**
 * The published form a survey or mission uses, and its version. New: search the published forms,
 * choose one (its latest version by default; an older one can be chosen). Existing: the pinned
 * version, and "Move to version N" when a newer one exists (answers keep the version they were
 * given). `locked` stops changing the form itself (answers exist).
 */
export function FormPicker({
  id,
  value,
  onChange,
  error,
  pinned,
  locked,
}: {
  id: string;
  value: FormChoice;
  onChange: (value: FormChoice) => void;
  error?: string | undefined;
  /** The saved choice of an existing survey or mission (edit screens). */
  pinned?: { formId: number; formVersion: number } | null;
  /** Why the form cannot be changed, when it cannot. */
  locked?: string | null;
}) {
  const [choosing, setChoosing] = useState(value.formId === null);
  const errorId = `${id}-error`;
  useEffect(() => {
    if (value.formId === null) setChoosing(true);
  }, [value.formId]);

  return (
    <fieldset className="flex flex-col gap-3" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-2 text-sm font-medium">{m.projects_detail_form()}</legend>
      {value.formId !== null && !choosing ? (
        <ChosenForm
          id={id}
          formId={value.formId}
          formVersion={value.formVersion}
          pinned={pinned && pinned.formId === value.formId ? pinned.formVersion : null}
          onVersion={(formVersion) => onChange({ formId: value.formId, formVersion })}
          onChange={locked ? null : () => setChoosing(true)}
          locked={locked ?? null}
        />
      ) : (
        <PublishedForms
          selected={value.formId}
          onChoose={(form) => {
            onChange({ formId: form.id, formVersion: form.latestVersion });
            setChoosing(false);
          }}
          onCancel={value.formId !== null ? () => setChoosing(false) : null}
        />
      )}
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </fieldset>
  );
}

function ChosenForm({
  id,
  formId,
  formVersion,
  pinned,
  onVersion,
  onChange,
  locked,
}: {
  id: string;
  formId: number;
  formVersion: number | null;
  pinned: number | null;
  onVersion: (version: number) => void;
  onChange: (() => void) | null;
  locked: string | null;
}) {
  const { load, reload } = useResource<AdminForm>(`/api/admin/forms/${formId}`);
  if (load.status === 'loading') {
    return (
      <Loading label={m.projects_form_loading()} className="flex h-[7.5rem] flex-col gap-2 rounded-lg border border-border p-4">
        <Bone className="h-5 w-56" />
        <Bone className="h-10 w-64" />
      </Loading>
    );
  }
  if (load.status !== 'ready') return <Failed title={m.projects_form_failed()} message={load.message} onRetry={reload} />;
  const form = load.data;
  const versions = form.versions;
  const latest = form.latestVersion;
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-border p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-col gap-0.5">
          <a href={`/admin/forms/${form.id}`} className="font-semibold break-words text-primary underline-offset-4 hover:underline">
            {form.title || m.projects_form_untitled()}
          </a>
          <span className="text-sm text-muted-foreground">
            {latest === null ? m.projects_form_not_published() : m.projects_form_latest_version({ version: formatCount(latest) })}
          </span>
        </div>
        {onChange && (
          <Button variant="outline" size="sm" onClick={onChange}>
            {m.projects_form_change()}
          </Button>
        )}
      </div>
      {locked && <p className="text-sm text-muted-foreground">{locked}</p>}
      {pinned !== null ? (
        <PinnedVersion id={id} pinned={pinned} latest={latest} value={formVersion} onChange={onVersion} />
      ) : versions.length > 0 ? (
        <div className="flex flex-col gap-2 sm:w-64">
          <Label htmlFor={`${id}-version`}>{m.projects_form_version()}</Label>
          <Select value={formVersion === null ? undefined : String(formVersion)} onValueChange={(next) => onVersion(Number(next))}>
            <SelectTrigger id={`${id}-version`}>
              <SelectValue placeholder={m.projects_form_choose_version()} />
            </SelectTrigger>
            <SelectContent>
              {versions.map((version) => (
                <SelectItem key={version.version} value={String(version.version)}>
                  {`${version.version === latest ? m.projects_form_version_latest({ version: formatCount(version.version) }) : m.projects_form_version_number({ version: formatCount(version.version) })} · ${formatDate(version.publishedAt)}`}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      ) : (
        <p className="text-sm text-destructive">{m.projects_form_no_version()}</p>
      )}
    </div>
  );
}

/** The version of an existing survey or mission, and the move to the latest one. */
function PinnedVersion({
  id,
  pinned,
  latest,
  value,
  onChange,
}: {
  id: string;
  pinned: number;
  latest: number | null;
  value: number | null;
  onChange: (version: number) => void;
}) {
  const newer = latest !== null && latest > pinned;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm">
        {withNodes((marks) => (newer ? m.projects_form_uses_version(marks) : m.projects_form_uses_latest_version(marks)), {
          version: <span className="font-semibold">{formatCount(pinned)}</span>,
        })}
      </p>
      {newer && (
        <div className="flex items-start gap-2 rounded-md bg-muted p-3">
          <Checkbox
            id={`${id}-move`}
            checked={value === latest}
            onCheckedChange={(checked) => onChange(checked === true ? latest : pinned)}
            aria-describedby={`${id}-move-description`}
            className="mt-0.5"
          />
          <div className="flex flex-col gap-1">
            <Label htmlFor={`${id}-move`}>{m.projects_form_move_to_version({ version: formatCount(latest) })}</Label>
            <p id={`${id}-move-description`} className="text-sm text-muted-foreground">
              {m.projects_form_move_description({ latest: formatCount(latest), pinned: formatCount(pinned) })}
            </p>
          </div>
        </div>
      )}
    </div>
  );
}

/** A searchable list of published forms, pages of 6. */
function PublishedForms({
  selected,
  onChoose,
  onCancel,
}: {
  selected: number | null;
  onChoose: (form: AdminFormListItem & { latestVersion: number }) => void;
  onCancel: (() => void) | null;
}) {
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const pageSize = 6;
  const params: Record<string, string> = { status: 'published', page: String(page), pageSize: String(pageSize), sort: 'updated' };
  if (q) params.q = q;
  const { load, reload } = useResource<AdminFormList>(withQuery('/api/admin/forms', params));
  const listId = useId();

  return (
    <div className="flex flex-col gap-3 rounded-lg border border-border p-4">
      <SearchForm
        nested
        label={m.projects_forms_search()}
        value={q}
        onSearch={(value) => {
          setQ(value);
          setPage(1);
        }}
      />
      {load.status === 'loading' ? (
        <Loading label={m.projects_forms_loading()} className="flex flex-col gap-2">
          {[0, 1, 2].map((row) => (
            <Bone key={row} className="h-12 w-full" />
          ))}
        </Loading>
      ) : load.status !== 'ready' ? (
        <Failed title={m.projects_forms_failed()} message={load.message} onRetry={reload} />
      ) : load.data.items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border px-3 py-6 text-center text-sm text-muted-foreground">
          {q
            ? m.projects_forms_none_match({ q })
            : withNodes((marks) => m.projects_forms_none(marks), {
                link: (
                  <a href="/admin/forms" className="text-primary underline underline-offset-4">
                    {m.projects_forms_none_link()}
                  </a>
                ),
              })}
        </p>
      ) : (
        <>
          <ul id={listId} aria-label={m.projects_forms_published()} className="flex flex-col divide-y divide-border rounded-md border border-border">
            {load.data.items.map((form) => (
              <li key={form.id} className="flex items-center justify-between gap-3 p-2.5">
                <span className="flex min-w-0 flex-col">
                  <span className="font-medium break-words">{form.title || m.projects_form_untitled()}</span>
                  <span className="text-xs text-muted-foreground">
                    {m.projects_forms_version_changed({
                      version: form.latestVersion === null ? '' : formatCount(form.latestVersion),
                      date: formatDate(form.updatedAt),
                    })}
                  </span>
                </span>
                <Button
                  variant={selected === form.id ? 'default' : 'outline'}
                  size="sm"
                  disabled={form.latestVersion === null}
                  onClick={() => form.latestVersion !== null && onChoose({ ...form, latestVersion: form.latestVersion })}
                >
                  {/* The visible words start the accessible name (voice control: "click Use this form"). */}
                  {withNodes((marks) => m.projects_forms_use(marks), { title: <span className="sr-only">“{form.title || m.projects_form_untitled()}”</span> })}
                </Button>
              </li>
            ))}
          </ul>
          {load.data.total > pageSize && (
            <div className="flex items-center justify-between gap-2 text-sm">
              <Button variant="ghost" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {m.projects_forms_previous()}
              </Button>
              <span className="text-muted-foreground tabular-nums">
                {m.projects_forms_page({ page: formatCount(page), pages: formatCount(Math.ceil(load.data.total / pageSize)) })}
              </span>
              <Button variant="ghost" size="sm" disabled={page * pageSize >= load.data.total} onClick={() => setPage(page + 1)}>
                {m.projects_forms_next()}
              </Button>
            </div>
          )}
        </>
      )}
      {onCancel && (
        <Button variant="ghost" size="sm" className="self-start" onClick={onCancel}>
          {m.projects_forms_keep()}
        </Button>
      )}
    </div>
  );
}

/** The props of a whole-number input between `min` and `max` (a numeric keyboard, steps of 1). */
export function wholeNumber(min: number, max: number) {
  return { type: 'number', inputMode: 'numeric', min, max, step: 1 } as const;
}

/** A switch with its label and, under the label, what it does (`children`). */
export function SwitchField({
  id,
  label,
  checked,
  onCheckedChange,
  children,
}: {
  id: string;
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <div className="flex items-start gap-3">
      <Switch id={id} checked={checked} onCheckedChange={onCheckedChange} aria-describedby={`${id}-description`} className="mt-0.5" />
      <div className="flex flex-col gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-description`} className="text-sm text-muted-foreground">
          {children}
        </p>
      </div>
    </div>
  );
}

/** The bottom of a long form: the submit button, a way back, and what is not saved yet. */
export function SaveBar({ submitting, label, cancelHref, dirty }: { submitting: boolean; label: string; cancelHref: string; dirty: boolean }) {
  return (
    <div className="sticky bottom-0 z-10 -mx-5 flex flex-wrap items-center gap-3 border-t border-border bg-card/95 px-5 py-3 backdrop-blur sm:-mx-6 sm:px-6">
      <Button type="submit" loading={submitting}>
        {label}
      </Button>
      <a href={cancelHref} className="text-sm text-primary underline underline-offset-4 hover:no-underline">
        {m.projects_cancel()}
      </a>
      {dirty && <span className="text-sm text-muted-foreground">{m.projects_editor_unsaved()}</span>}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Bound to the editor's form (react-hook-form's context, `EditorValues`)

/** A bound field's id (unique on the page) and the editor's form. */
function useEditorForm() {
  const id = useId();
  return { id, ...useFormContext<EditorValues>() };
}

/** The title, as members see it on their home page. */
export function TitleField() {
  const { id, register, formState } = useEditorForm();
  return (
    <FormField
      id={`${id}-title`}
      label={m.projects_announcements_field_title()}
      description={m.projects_editor_title_help()}
      error={formState.errors.title?.message}
    >
      {(c) => <Input {...c} autoComplete="off" maxLength={PROGRAMME_LIMITS.titleMax + 20} {...register('title')} />}
    </FormField>
  );
}

/** The points it is worth; `description` says when they are earned. */
export function PointsField({ description }: { description: string }) {
  const { id, register, formState } = useEditorForm();
  return (
    <FormField id={`${id}-points`} label={m.projects_detail_points()} description={description} error={formState.errors.points?.message}>
      {(c) => <Input {...c} {...wholeNumber(0, PROGRAMME_LIMITS.pointsMax)} className="sm:w-40" {...register('points', { setValueAs: numberOrNaN })} />}
    </FormField>
  );
}

/**
 * The published form and its version (`FormPicker`). `pinned`: the saved choice (edit screens);
 * `answered`: members have started it, so it keeps its form.
 */
export function FormChoiceField({
  subject,
  pinned,
  answered,
}: {
  subject: EditorSubject;
  pinned: { formId: number; formVersion: number } | null;
  answered: boolean;
}) {
  const { id, control } = useEditorForm();
  return (
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
              pinned={pinned}
              locked={answered ? (subject === 'survey' ? m.projects_form_locked_survey() : m.projects_form_locked_mission()) : null}
            />
          )}
        />
      )}
    />
  );
}

/** The two ends of the schedule: empty means "as soon as it is live" and "until closed by hand". */
const SCHEDULE = [
  { name: 'opensAt', id: 'opens', label: m.projects_schedule_opens, description: m.projects_schedule_opens_help, defaultTime: '09:00' },
  { name: 'closesAt', id: 'closes', label: m.projects_schedule_closes, description: m.projects_schedule_closes_help, defaultTime: '23:59' },
] as const;

/** When it opens and closes: two moments side by side. */
export function ScheduleFields() {
  const { id, control } = useEditorForm();
  return (
    <div className="grid gap-5 md:grid-cols-2">
      {SCHEDULE.map((end) => (
        <Controller
          key={end.name}
          control={control}
          name={end.name}
          render={({ field, fieldState }) => (
            <MomentField
              id={`${id}-${end.id}`}
              label={end.label()}
              description={end.description()}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
              defaultTime={end.defaultTime}
            />
          )}
        />
      ))}
    </div>
  );
}

/** The status (draft / live / closed). */
export function StatusChoiceField() {
  const { id, control } = useEditorForm();
  return (
    <Controller
      control={control}
      name="status"
      render={({ field, fieldState }) => (
        <ChoiceCards
          idPrefix={`${id}-status`}
          legend={m.projects_editor_status()}
          choices={statusChoices()}
          value={field.value}
          onChange={field.onChange}
          size="sm"
          className="sm:grid-cols-3"
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
