/**
 * The project page's "Mission groups" card (docs/product.md has no route of their own): each group with
 * its unlock rule and its missions in order; create and edit in a dialog (title, description,
 * the ordered missions with add, remove, Move up and Move down, the unlock rule and, in order,
 * whether a mission counts once submitted or once approved); delete with a confirmation.
 */
import { useEffect, useId, useState } from 'react';
import { useController, type Control } from 'react-hook-form';
import type { AdminMissionGroup, GroupUnlock, GroupUnlockOn } from '../../../shared/mission-groups.ts';
import type { AdminMission } from '../../../shared/missions.ts';
import { apiSend } from '../../../platform/api.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import type { Load } from '../../../lib/resource.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { useApiForm } from '../../../lib/use-api-form.ts';
import { toast } from '../../../stores/toasts.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { RadioGroup, RadioGroupItem } from '../../../components/ui/radio-group.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select.tsx';
import { Bone } from '../../../components/ui/skeleton.tsx';
import { ConfirmButton, Section } from '../admin-kit.tsx';
import { ActivityStatusBadge } from './kit.tsx';
import { moveItem } from './logic.ts';
import { DescriptionField } from './ProjectFields.tsx';
import type { MissionGroupList } from './types.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';

/** How a group's missions open, in words. */
export function unlockText(group: Pick<AdminMissionGroup, 'unlock' | 'unlockOn'>): string {
  if (group.unlock === 'all_open') return m.projects_groups_unlock_all_open();
  return group.unlockOn === 'approved' ? m.projects_groups_unlock_in_order_approved() : m.projects_groups_unlock_in_order_submitted();
}

export function MissionGroupsPanel({
  projectId,
  load,
  reload,
  missions,
}: {
  projectId: number;
  load: Load<MissionGroupList>;
  reload: () => void;
  missions: AdminMission[] | null;
}) {
  const [editing, setEditing] = useState<AdminMissionGroup | 'new' | null>(null);
  const titleOf = (id: number) => missions?.find((mission) => mission.id === id)?.title ?? m.projects_groups_mission_fallback({ id: String(id) });

  async function remove(group: AdminMissionGroup) {
    try {
      await apiSend<unknown>('DELETE', `/api/admin/mission-groups/${group.id}`);
      toast({ title: m.projects_groups_deleted({ title: group.title }), description: m.projects_groups_deleted_description() });
      reload();
    } catch (error) {
      if (!handleSessionLost(error)) toast({ title: m.projects_groups_delete_failed(), description: errorMessage(error), variant: 'destructive' });
    }
  }

  return (
    <Section
      id="mission-groups"
      title={m.projects_groups_title()}
      description={m.projects_groups_description()}
      aside={
        <Button size="sm" onClick={() => setEditing('new')}>
          <span aria-hidden="true">+</span> {m.projects_groups_new()}
        </Button>
      }
    >
      {load.status === 'loading' ? (
        <Loading label={m.projects_groups_loading()} className="flex flex-col gap-2">
          <Bone className="h-28 w-full" />
        </Loading>
      ) : load.status !== 'ready' ? (
        <Failed title={m.projects_groups_failed()} message={load.message} onRetry={reload} />
      ) : load.data.items.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
          <p>{m.projects_groups_none()}</p>
          <Button variant="outline" size="sm" onClick={() => setEditing('new')}>
            {m.projects_groups_new()}
          </Button>
        </div>
      ) : (
        <ul aria-label={m.projects_groups_title()} className="flex flex-col divide-y divide-border rounded-lg border border-border">
          {load.data.items.map((group) => (
            <li key={group.id} className="flex flex-col gap-3 p-4">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="flex min-w-0 flex-col gap-1">
                  <h3 className="font-semibold break-words">{group.title}</h3>
                  <p className="text-sm text-muted-foreground">{unlockText(group)}</p>
                  {group.description && <p className="text-sm whitespace-pre-line">{group.description}</p>}
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button variant="outline" size="sm" onClick={() => setEditing(group)}>
                    {withNodes((marks) => m.projects_list_edit_item(marks), { title: <span className="sr-only">“{group.title}”</span> })}
                  </Button>
                  <ConfirmButton
                    confirmVariant="destructive"
                    confirmLabel={m.projects_groups_delete()}
                    question={m.projects_groups_delete_question({ title: group.title })}
                    onConfirm={() => remove(group)}
                  >
                    {withNodes((marks) => m.projects_groups_delete_named(marks), { title: <span className="sr-only">“{group.title}”</span> })}
                  </ConfirmButton>
                </div>
              </div>
              {group.missionIds.length === 0 ? (
                <p className="text-sm text-muted-foreground">{m.projects_groups_no_missions()}</p>
              ) : (
                <ol aria-label={m.projects_groups_missions_of({ title: group.title })} className="flex list-decimal flex-col gap-1 ps-6 text-sm">
                  {group.missionIds.map((id) => (
                    <li key={id}>
                      <a href={`/admin/projects/${projectId}/missions/${id}`} className="text-primary underline-offset-4 hover:underline">
                        {titleOf(id)}
                      </a>
                    </li>
                  ))}
                </ol>
              )}
            </li>
          ))}
        </ul>
      )}
      <GroupDialog
        projectId={projectId}
        group={editing}
        missions={missions}
        onClose={() => setEditing(null)}
        onSaved={(saved, created) => {
          setEditing(null);
          toast({ title: created ? m.projects_groups_created({ title: saved.title }) : m.projects_groups_saved({ title: saved.title }) });
          reload();
        }}
      />
    </Section>
  );
}

interface GroupValues {
  title: string;
  description: string;
  missionIds: number[];
  unlock: GroupUnlock;
  unlockOn: GroupUnlockOn;
}

const GROUP_FIELDS = ['title', 'description', 'missionIds', 'unlock', 'unlockOn'] as const;

function GroupDialog({
  projectId,
  group,
  missions,
  onClose,
  onSaved,
}: {
  projectId: number;
  group: AdminMissionGroup | 'new' | null;
  missions: AdminMission[] | null;
  onClose: () => void;
  onSaved: (group: AdminMissionGroup, created: boolean) => void;
}) {
  const creating = group === 'new';
  return (
    <Dialog open={group !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{creating ? m.projects_groups_new() : m.projects_groups_edit()}</DialogTitle>
          <DialogDescription>{m.projects_groups_dialog_description()}</DialogDescription>
        </DialogHeader>
        {group !== null && (
          <GroupForm
            key={creating ? 'new' : group.id}
            projectId={projectId}
            group={creating ? null : group}
            missions={missions}
            onCancel={onClose}
            onSaved={onSaved}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function GroupForm({
  projectId,
  group,
  missions,
  onCancel,
  onSaved,
}: {
  projectId: number;
  group: AdminMissionGroup | null;
  missions: AdminMission[] | null;
  onCancel: () => void;
  onSaved: (group: AdminMissionGroup, created: boolean) => void;
}) {
  const id = useId();
  const {
    onSubmit,
    alert,
    register,
    control,
    watch,
    setValue,
    formState: { errors, isSubmitting },
  } = useApiForm<GroupValues>({
    schema: () =>
      import('../../../shared/schemas/mission-groups.ts').then((schemas) => (group ? schemas.missionGroupPatchSchema : schemas.missionGroupCreateSchema)),
    defaultValues: {
      title: group?.title ?? '',
      description: group?.description ?? '',
      missionIds: group?.missionIds ?? [],
      unlock: group?.unlock ?? 'all_open',
      unlockOn: group?.unlockOn ?? 'submitted',
    },
    fields: GROUP_FIELDS,
    describeError: (error) => (handleSessionLost(error) ? null : undefined),
    submit: async (values) => {
      const saved = group
        ? await apiSend<AdminMissionGroup>('PATCH', `/api/admin/mission-groups/${group.id}`, values)
        : await apiSend<AdminMissionGroup>('POST', `/api/admin/projects/${projectId}/mission-groups`, values);
      onSaved(saved, group === null);
    },
  });
  const unlock = watch('unlock');
  const unlockOn = watch('unlockOn');

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-5">
      {alert && <Alert variant="destructive">{alert}</Alert>}
      <FormField id={`${id}-title`} label={m.projects_announcements_field_title()} error={errors.title?.message}>
        {(c) => <Input {...c} autoComplete="off" {...register('title')} />}
      </FormField>
      <DescriptionField
        id={`${id}-description`}
        description={m.projects_groups_description_help()}
        rows={3}
        error={errors.description?.message}
        registration={register('description')}
      />
      <MissionOrder control={control} missions={missions} idPrefix={id} />

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-medium">{m.projects_groups_how_open()}</legend>
        <RadioGroup
          value={unlock}
          onValueChange={(value) => setValue('unlock', value === 'in_order' ? 'in_order' : 'all_open', { shouldDirty: true })}
          aria-label={m.projects_groups_how_open()}
        >
          <RadioChoice
            id={`${id}-all-open`}
            value="all_open"
            label={m.projects_groups_all_at_once()}
            description={m.projects_groups_all_at_once_description()}
          />
          <RadioChoice id={`${id}-in-order`} value="in_order" label={m.projects_groups_in_order()} description={m.projects_groups_in_order_description()} />
        </RadioGroup>
        {unlock === 'in_order' && (
          <div className="ms-7 flex flex-col gap-2">
            <span id={`${id}-done-label`} className="text-sm font-medium">
              {m.projects_groups_done_when()}
            </span>
            <RadioGroup
              value={unlockOn}
              onValueChange={(value) => setValue('unlockOn', value === 'approved' ? 'approved' : 'submitted', { shouldDirty: true })}
              aria-labelledby={`${id}-done-label`}
            >
              <RadioChoice id={`${id}-submitted`} value="submitted" label={m.projects_groups_done_submitted()} />
              <RadioChoice id={`${id}-approved`} value="approved" label={m.projects_groups_done_approved()} />
            </RadioGroup>
          </div>
        )}
        {(errors.unlock?.message || errors.unlockOn?.message) && (
          <FieldError id={`${id}-unlock-error`}>{errors.unlock?.message ?? errors.unlockOn?.message}</FieldError>
        )}
      </fieldset>

      <DialogFooter>
        <Button variant="outline" onClick={onCancel} disabled={isSubmitting}>
          {m.projects_cancel()}
        </Button>
        <Button type="submit" loading={isSubmitting}>
          {group ? m.projects_groups_save() : m.projects_groups_create()}
        </Button>
      </DialogFooter>
    </form>
  );
}

function RadioChoice({ id, value, label, description }: { id: string; value: string; label: string; description?: string }) {
  return (
    <div className="flex items-start gap-2">
      <RadioGroupItem id={id} value={value} aria-describedby={description ? `${id}-description` : undefined} className="mt-0.5" />
      <div className="flex flex-col gap-0.5">
        <Label htmlFor={id}>{label}</Label>
        {description && (
          <span id={`${id}-description`} className="text-sm text-muted-foreground">
            {description}
          </span>
        )}
      </div>
    </div>
  );
}

/** The group's missions in order, with Move up / Move down / Remove, and a picker to add one. */
function MissionOrder({ control, missions, idPrefix }: { control: Control<GroupValues>; missions: AdminMission[] | null; idPrefix: string }) {
  const { field, fieldState } = useController({ control, name: 'missionIds' });
  const ids = field.value;
  const [choice, setChoice] = useState<string>('');
  const [announcement, setAnnouncement] = useState('');
  const available = (missions ?? []).filter((mission) => !ids.includes(mission.id));
  const titleOf = (missionId: number) =>
    missions?.find((mission) => mission.id === missionId)?.title ?? m.projects_groups_mission_fallback({ id: String(missionId) });
  const errorId = `${idPrefix}-missions-error`;

  useEffect(() => {
    if (choice && !available.some((mission) => String(mission.id) === choice)) setChoice('');
  }, [available, choice]);

  function move(index: number, delta: number) {
    const next = moveItem(ids, index, delta);
    field.onChange(next);
    const id = ids[index];
    if (id !== undefined)
      setAnnouncement(m.projects_groups_moved({ title: titleOf(id), position: formatCount(next.indexOf(id) + 1), total: formatCount(next.length) }));
    // Keep the focus on the same button of the moved row when it still exists.
    requestAnimationFrame(() => {
      const target = document.getElementById(`${idPrefix}-mission-${id}-${delta < 0 ? 'up' : 'down'}`) as HTMLButtonElement | null;
      if (target && !target.disabled) target.focus();
      else document.getElementById(`${idPrefix}-mission-${id}-${delta < 0 ? 'down' : 'up'}`)?.focus();
    });
  }

  return (
    <fieldset className="flex flex-col gap-3" aria-describedby={fieldState.error ? errorId : undefined}>
      <legend className="mb-2 text-sm font-medium">{m.projects_groups_missions_in_order()}</legend>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      {missions === null ? (
        <Bone className="h-20 w-full" />
      ) : ids.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border px-3 py-4 text-center text-sm text-muted-foreground">
          {m.projects_groups_no_missions_add()}
        </p>
      ) : (
        <ol className="flex flex-col divide-y divide-border rounded-lg border border-border">
          {ids.map((missionId, index) => {
            const mission = missions.find((candidate) => candidate.id === missionId);
            const title = titleOf(missionId);
            return (
              <li key={missionId} className="flex flex-col gap-2 p-2.5 sm:flex-row sm:items-center sm:justify-between">
                <span className="flex min-w-0 items-center gap-2 text-sm">
                  <span className="w-6 shrink-0 text-end text-muted-foreground tabular-nums">{formatCount(index + 1)}.</span>
                  <span className="break-words">{title}</span>
                  {mission && <ActivityStatusBadge status={mission.status} />}
                </span>
                <span className="flex shrink-0 flex-wrap gap-1">
                  <Button
                    id={`${idPrefix}-mission-${missionId}-up`}
                    variant="ghost"
                    size="sm"
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                    aria-label={m.projects_groups_move_up_named({ title })}
                  >
                    {m.projects_groups_move_up()}
                  </Button>
                  <Button
                    id={`${idPrefix}-mission-${missionId}-down`}
                    variant="ghost"
                    size="sm"
                    disabled={index === ids.length - 1}
                    onClick={() => move(index, 1)}
                    aria-label={m.projects_groups_move_down_named({ title })}
                  >
                    {m.projects_groups_move_down()}
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={m.projects_groups_remove_named({ title })}
                    onClick={() => {
                      field.onChange(ids.filter((other) => other !== missionId));
                      setAnnouncement(m.projects_groups_removed({ title }));
                    }}
                  >
                    {m.projects_members_remove()}
                  </Button>
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {missions !== null && (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex min-w-0 flex-1 flex-col gap-2">
            <Label htmlFor={`${idPrefix}-add`}>{m.projects_groups_add_mission()}</Label>
            <Select value={choice} onValueChange={setChoice} disabled={available.length === 0}>
              <SelectTrigger id={`${idPrefix}-add`}>
                <SelectValue
                  placeholder={
                    missions.length === 0
                      ? m.projects_groups_project_no_missions()
                      : available.length === 0
                        ? m.projects_groups_all_in_group()
                        : m.projects_groups_choose_mission()
                  }
                />
              </SelectTrigger>
              <SelectContent>
                {available.map((mission) => (
                  <SelectItem key={mission.id} value={String(mission.id)}>
                    {mission.title}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <Button
            variant="secondary"
            disabled={!choice}
            onClick={() => {
              const missionId = Number(choice);
              if (!Number.isInteger(missionId) || ids.includes(missionId)) return;
              field.onChange([...ids, missionId]);
              setAnnouncement(m.projects_groups_added({ title: titleOf(missionId), position: formatCount(ids.length + 1) }));
              setChoice('');
            }}
          >
            {m.projects_groups_add()}
          </Button>
        </div>
      )}
      {fieldState.error?.message && <FieldError id={errorId}>{fieldState.error.message}</FieldError>}
      {missions !== null && missions.length > 0 && (
        <p className="text-xs text-muted-foreground">{m.projects_groups_missions_in_project({ count: missions.length })}</p>
      )}
    </fieldset>
  );
}
