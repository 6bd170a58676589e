/**
 * The project page's "Surveys" and "Missions" cards: each survey or mission with its status, kind, dates,
 * points, counts (members, started, submitted) and a completion bar (submitted / members), a link
 * to its page and to its edit screen, and "New survey" / "New mission".
 */
import type { ReactNode } from 'react';
import type { AdminMission } from '../../../shared/missions.ts';
import type { ActivityCounts, ActivityStatus } from '../../../shared/projects.ts';
import type { AdminSurvey } from '../../../shared/surveys.ts';
import type { Load } from '../../../lib/resource.ts';
import { Section } from '../admin-kit.tsx';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { buttonVariants } from '../../../components/ui/button.tsx';
import { Bone } from '../../../components/ui/skeleton.tsx';
import { ActivityStatusBadge, CompletionBar, WindowText } from './kit.tsx';
import { plural } from './logic.ts';
import type { MissionList, SurveyList } from './types.ts';

interface Row {
  id: number;
  title: string;
  status: ActivityStatus;
  href: string;
  editHref: string;
  kind: string;
  opensAt: string | null;
  closesAt: string | null;
  points: number;
  counts: ActivityCounts;
  extra?: ReactNode;
}

function ListRow({ row }: { row: Row }) {
  return (
    <li className="grid gap-4 p-4 md:grid-cols-[minmax(0,1fr)_16rem] md:items-center">
      <div className="flex min-w-0 flex-col gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <a href={row.href} className="font-semibold break-words text-primary underline-offset-4 hover:underline">
            {row.title}
          </a>
          <ActivityStatusBadge status={row.status} />
          <Badge variant="outline">{row.kind}</Badge>
        </div>
        <p className="text-sm text-muted-foreground">
          <WindowText opensAt={row.opensAt} closesAt={row.closesAt} />
          <span aria-hidden="true"> · </span>
          <span className="sr-only">, </span>
          {plural(row.points, 'point', 'points')}
          {row.extra}
        </p>
        <a href={row.editHref} className="self-start text-sm text-primary underline underline-offset-4 hover:no-underline">
          Edit<span className="sr-only"> “{row.title}”</span>
        </a>
      </div>
      <CompletionBar counts={row.counts} />
    </li>
  );
}

function RowsSkeleton({ label }: { label: string }) {
  return (
    <Loading label={label} className="flex flex-col divide-y divide-border rounded-lg border border-border">
      {[0, 1].map((row) => (
        <div key={row} aria-hidden="true" className="flex h-[9rem] flex-col gap-2 p-4 md:h-[6.5rem]">
          <Bone className="h-5 w-56" />
          <Bone className="h-4 w-72 max-w-full" />
          <Bone className="h-2 w-64 max-w-full" />
        </div>
      ))}
    </Loading>
  );
}

function ListBody({ load, reload, what, rows, empty }: { load: Load<unknown>; reload: () => void; what: string; rows: Row[]; empty: ReactNode }) {
  if (load.status === 'loading') return <RowsSkeleton label={`Loading the ${what}…`} />;
  if (load.status !== 'ready') return <Failed title={`The ${what} could not be loaded`} message={load.message} onRetry={reload} />;
  if (rows.length === 0)
    return (
      <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
        {empty}
      </div>
    );
  return (
    <ul aria-label={what[0]?.toUpperCase() + what.slice(1)} className="flex flex-col divide-y divide-border rounded-lg border border-border">
      {rows.map((row) => (
        <ListRow key={row.id} row={row} />
      ))}
    </ul>
  );
}

export function SurveysSection({ projectId, load, reload }: { projectId: number; load: Load<SurveyList>; reload: () => void }) {
  const newHref = `/admin/projects/${projectId}/surveys/new`;
  const rows: Row[] =
    load.status === 'ready'
      ? load.data.items.map((survey: AdminSurvey) => ({
          id: survey.id,
          title: survey.title,
          status: survey.status,
          href: `/admin/projects/${projectId}/surveys/${survey.id}`,
          editHref: `/admin/projects/${projectId}/surveys/${survey.id}/edit`,
          kind: survey.kind === 'native' ? 'Form' : 'Alchemer',
          opensAt: survey.opensAt,
          closesAt: survey.closesAt,
          points: survey.points,
          counts: survey.counts,
          extra: survey.estimatedMinutes ? (
            <>
              <span aria-hidden="true"> · </span>
              <span className="sr-only">, </span>~{survey.estimatedMinutes} min
            </>
          ) : null,
        }))
      : [];
  return (
    <Section
      id="surveys"
      title="Surveys"
      description="Questionnaires from a published form, or an Alchemer link."
      aside={
        <a href={newHref} className={buttonVariants({ size: 'sm' })}>
          <span aria-hidden="true">+</span> New survey
        </a>
      }
    >
      <ListBody
        load={load}
        reload={reload}
        what="surveys"
        rows={rows}
        empty={
          <>
            <p>No surveys yet. Create one from a published form, or link an Alchemer survey.</p>
            <a href={newHref} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
              New survey
            </a>
          </>
        }
      />
    </Section>
  );
}

/** "1 entry", "2–5 entries", "up to 1 a day". */
export function entriesRule(entries: AdminMission['entries']): string {
  const count = entries.min === entries.max ? plural(entries.min, 'entry', 'entries') : `${entries.min}–${entries.max} entries`;
  return entries.perDay ? `${count}, at most ${entries.perDay} a day` : count;
}

export function MissionsSection({ projectId, load, reload }: { projectId: number; load: Load<MissionList>; reload: () => void }) {
  const newHref = `/admin/projects/${projectId}/missions/new`;
  const rows: Row[] =
    load.status === 'ready'
      ? load.data.items.map((mission: AdminMission) => ({
          id: mission.id,
          title: mission.title,
          status: mission.status,
          href: `/admin/projects/${projectId}/missions/${mission.id}`,
          editHref: `/admin/projects/${projectId}/missions/${mission.id}/edit`,
          kind: mission.entries.perDay === 1 && mission.entries.max > 1 ? 'Diary' : 'Mission',
          opensAt: mission.opensAt,
          closesAt: mission.closesAt,
          points: mission.points,
          counts: mission.counts,
          extra: (
            <>
              <span aria-hidden="true"> · </span>
              <span className="sr-only">, </span>
              {entriesRule(mission.entries)}
            </>
          ),
        }))
      : [];
  return (
    <Section
      id="missions"
      title="Missions"
      description="Tasks with photos, texts and ratings; diaries take one entry a day."
      aside={
        <a href={newHref} className={buttonVariants({ size: 'sm' })}>
          <span aria-hidden="true">+</span> New mission
        </a>
      }
    >
      <ListBody
        load={load}
        reload={reload}
        what="missions"
        rows={rows}
        empty={
          <>
            <p>No missions yet. Create one from a published form: a photo task, a diary, a review.</p>
            <a href={newHref} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
              New mission
            </a>
          </>
        }
      />
    </Section>
  );
}
