/**
 * The gallery's filters bar: project and mission (loaded from the admin lists), participant,
 * entry state, current or replaced photos, tag, starred and a range of days. Selects apply at
 * once; the text and date fields apply with "Apply filters" (or Enter), as typed: a participant's
 * user id, or part of a name or an email (the server matches it). The address bar mirrors what
 * is applied (`Gallery.tsx`).
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { GALLERY_LIMITS, type GalleryFilters } from '../../../shared/gallery.ts';
import { ENTRY_STATUSES } from '../../../shared/mission-entries.ts';
import type { ListPage } from '../../../shared/list.ts';
import type { AdminProject } from '../../../shared/projects.ts';
import type { AdminMission } from '../../../shared/missions.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import { useResource } from '../../../lib/resource.ts';
import { cn } from '../../../lib/utils.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { FilterSelect } from '../admin-kit.tsx';
import { ENTRY_STATUS_LABELS } from '../projects/logic.ts';

const ALL = 'all';

const stateOptions = () => [
  { value: ALL, label: m.gallery_filter_any_state() },
  ...ENTRY_STATUSES.map((status) => ({ value: status, label: ENTRY_STATUS_LABELS[status] })),
];
const starredOptions = () => [
  { value: ALL, label: m.gallery_filter_all_photos() },
  { value: 'true', label: m.gallery_filter_starred_only() },
  { value: 'false', label: m.gallery_filter_not_starred() },
];
/** Photos and videos, or one kind (`kind`). */
const kindOptions = () => [
  { value: ALL, label: m.gallery_filter_all_kinds() },
  { value: 'photo', label: m.gallery_filter_kind_photo() },
  { value: 'video', label: m.gallery_filter_kind_video() },
];
/** The photos of each entry's current version, or the ones replaced (`replaced=true`). */
const versionOptions = () => [
  { value: ALL, label: m.gallery_filter_current_version() },
  { value: 'true', label: m.gallery_filter_replaced() },
];

/** The text fields, edited here until applied. */
interface Draft {
  /** A user id, or part of a name or an email. */
  participant: string;
  tag: string;
  from: string;
  to: string;
}

const draftOf = (filters: GalleryFilters): Draft => ({
  participant: filters.userId ?? filters.participant ?? '',
  tag: filters.tag ?? '',
  from: filters.from ?? '',
  to: filters.to ?? '',
});

export function GalleryFiltersBar({ filters, onChange }: { filters: GalleryFilters; onChange: (next: GalleryFilters) => void }) {
  const id = useId();
  const projects = useResource<ListPage<AdminProject>>('/api/admin/projects?pageSize=100&sort=name&dir=asc');
  const missions = useResource<{ items: AdminMission[] }>(filters.projectId ? `/api/admin/projects/${filters.projectId}/missions` : null);
  const [draft, setDraft] = useState<Draft>(() => draftOf(filters));
  const [expanded, setExpanded] = useState(false);
  // Filters changed from outside (the address, "Clear filters"): the fields follow.
  useEffect(() => setDraft(draftOf(filters)), [filters]);

  const projectOptions = [
    { value: ALL, label: m.gallery_filter_all_projects() },
    ...(projects.load.status === 'ready' ? projects.load.data.items.map((project) => ({ value: String(project.id), label: project.name })) : []),
  ];
  // A project from the address that the first 100 do not hold still shows as chosen.
  if (filters.projectId && !projectOptions.some((option) => option.value === filters.projectId)) {
    projectOptions.push({ value: filters.projectId, label: m.gallery_filter_project_number({ id: filters.projectId }) });
  }
  const missionOptions = [
    { value: ALL, label: m.gallery_filter_all_missions() },
    ...(missions.load.status === 'ready' ? missions.load.data.items.map((mission) => ({ value: String(mission.id), label: mission.title })) : []),
  ];
  if (filters.missionId && !missionOptions.some((option) => option.value === filters.missionId)) {
    missionOptions.push({ value: filters.missionId, label: m.gallery_filter_mission_number({ id: filters.missionId }) });
  }

  const set = (patch: GalleryFilters) => {
    const next: GalleryFilters = { ...filters, ...patch };
    for (const key of Object.keys(next) as (keyof GalleryFilters)[]) if (!next[key] || next[key] === ALL) delete next[key];
    onChange(next);
  };

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const participant = draft.participant.trim();
    // A user id names one participant; any other text is part of a name or an email, applied as typed.
    const byId = /^\d{1,10}$/.test(participant);
    set({ userId: byId ? participant : '', participant: byId ? '' : participant, tag: draft.tag.trim(), from: draft.from, to: draft.to });
  }

  const active = Object.keys(filters).length > 0;
  const count = Object.keys(filters).length;
  return (
    <div className="flex flex-col gap-3">
      {/* Phones: the filters fold away behind one button; wider screens always show them. */}
      <Button
        type="button"
        variant="outline"
        className="self-start sm:hidden"
        aria-expanded={expanded}
        aria-controls={`${id}-form`}
        onClick={() => setExpanded(!expanded)}
      >
        {count > 0 ? m.gallery_filters_count({ count: formatCount(count) }) : m.gallery_filters()}
      </Button>
      <form
        id={`${id}-form`}
        role="search"
        aria-label={m.gallery_filter_label()}
        onSubmit={apply}
        className={cn('flex-col gap-4 rounded-lg border border-border bg-card p-4 sm:flex', expanded ? 'flex' : 'hidden')}
      >
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <FilterSelect
            label={m.gallery_filter_project()}
            value={filters.projectId ?? ALL}
            options={projectOptions}
            onChange={(value) => set({ projectId: value, missionId: '' })}
          />
          {filters.projectId ? (
            <FilterSelect
              label={m.gallery_filter_mission()}
              value={filters.missionId ?? ALL}
              options={missionOptions}
              onChange={(value) => set({ missionId: value })}
            />
          ) : (
            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-mission`}>{m.gallery_filter_mission()}</Label>
              <Input id={`${id}-mission`} disabled value="" placeholder={m.gallery_filter_choose_project_first()} readOnly />
            </div>
          )}
          <FilterSelect
            label={m.gallery_filter_entry_state()}
            value={filters.state ?? ALL}
            options={stateOptions()}
            onChange={(value) => set({ state: value })}
          />
          <FilterSelect label={m.gallery_filter_kind()} value={filters.kind ?? ALL} options={kindOptions()} onChange={(value) => set({ kind: value })} />
          <FilterSelect
            label={m.gallery_filter_photos()}
            value={filters.replaced ?? ALL}
            options={versionOptions()}
            onChange={(value) => set({ replaced: value })}
          />
          <FilterSelect
            label={m.gallery_filter_starred()}
            value={filters.starred ?? ALL}
            options={starredOptions()}
            onChange={(value) => set({ starred: value })}
          />
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${id}-user`}>{m.gallery_filter_participant()}</Label>
            <Input
              id={`${id}-user`}
              value={draft.participant}
              aria-describedby={`${id}-user-hint`}
              maxLength={GALLERY_LIMITS.participantLength}
              onChange={(event) => setDraft({ ...draft, participant: event.target.value })}
            />
            <span id={`${id}-user-hint`} className="text-xs text-muted-foreground">
              {m.gallery_filter_participant_hint()}
            </span>
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${id}-tag`}>{m.gallery_filter_tag()}</Label>
            <Input
              id={`${id}-tag`}
              value={draft.tag}
              maxLength={GALLERY_LIMITS.tagLength}
              aria-describedby={`${id}-tag-hint`}
              onChange={(event) => setDraft({ ...draft, tag: event.target.value })}
            />
            <span id={`${id}-tag-hint`} className="text-xs text-muted-foreground">
              {m.gallery_filter_tag_hint({ count: GALLERY_LIMITS.tagLength })}
            </span>
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${id}-from`}>{m.gallery_filter_from()}</Label>
            <Input id={`${id}-from`} type="date" value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${id}-to`}>{m.gallery_filter_to()}</Label>
            <Input id={`${id}-to`} type="date" value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit">{m.gallery_filter_apply()}</Button>
          {active && (
            <Button type="button" variant="outline" onClick={() => onChange({})}>
              {m.gallery_filter_clear()}
            </Button>
          )}
        </div>
      </form>
    </div>
  );
}
