/**
 * The project page's "Surveys" and "Missions" cards: each survey or mission with its status, kind, dates,
 * points, counts (members, started, submitted) and a completion bar (submitted / members), a link
 * to its page and to its edit screen, and "New survey" / "New mission".
 */
import type { AdminMission } from '../../../shared/missions.ts';
import type { AdminSurvey } from '../../../shared/surveys.ts';
import type { ProjectStatus } from '../../../shared/projects.ts';
import type { Load } from '../../../lib/resource.ts';
import { Section } from '../admin-kit.tsx';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { buttonVariants } from '../../../components/ui/button.tsx';
import { Bone } from '../../../components/ui/skeleton.tsx';
import { ActivityStatusBadge, CompletionBar, WindowText } from './kit.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import type { MissionList, SurveyList } from './types.ts';

/** What a list shows of a survey or mission. */
type ListItem = Pick<AdminSurvey, 'id' | 'title' | 'status' | 'opensAt' | 'closesAt' | 'points' | 'counts'>;

/** A row's own words: its kind (a badge) and what its line adds after the points. */
interface RowWords {
  kind: string;
  extra: string | null;
}

/** " · " between two parts of a line (", " for screen readers). */
function Separator() {
  return (
    <>
      <span aria-hidden="true"> · </span>
      <span className="sr-only">, </span>
    </>
  );
}

function ListRow({ item, words: { kind, extra }, href, projectStatus }: { item: ListItem; words: RowWords; href: string; projectStatus?: ProjectStatus }) {
  return (
    <li className="grid gap-4 p-4 md:grid-cols-[minmax(0,1fr)_16rem] md:items-center">
      <div className="flex min-w-0 flex-col gap-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <a href={href} className="font-semibold break-words text-primary underline-offset-4 hover:underline">
            {item.title}
          </a>
          <ActivityStatusBadge status={item.status} projectStatus={projectStatus} />
          <Badge variant="outline">{kind}</Badge>
        </div>
        <p className="text-sm text-muted-foreground">
          <WindowText opensAt={item.opensAt} closesAt={item.closesAt} />
          <Separator />
          {m.projects_points_count({ count: item.points })}
          {extra !== null && (
            <>
              <Separator />
              {extra}
            </>
          )}
        </p>
        <a href={`${href}/edit`} className="self-start text-sm text-primary underline underline-offset-4 hover:no-underline">
          {withNodes((marks) => m.projects_list_edit_item(marks), { title: <span className="sr-only">“{item.title}”</span> })}
        </a>
      </div>
      <CompletionBar counts={item.counts} />
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

/** What the project page gives its "Surveys" and "Missions" cards. */
interface SectionProps<L> {
  projectId: number;
  /** The project's status: a live item of a draft project says members don't see it yet. */
  projectStatus?: ProjectStatus;
  load: Load<L>;
  reload: () => void;
}

/** A "Surveys" or "Missions" card: its rows, or the loading, failure and empty states, and "New …". */
function ActivitiesSection<T extends ListItem>({
  subject,
  projectId,
  projectStatus,
  load,
  reload,
  words,
  description,
  empty,
}: SectionProps<{ items: T[] }> & {
  subject: 'survey' | 'mission';
  words: (item: T) => RowWords;
  description: string;
  /** The empty card's sentence (a "New …" button follows). */
  empty: string;
}) {
  const what = `${subject}s`;
  const survey = subject === 'survey';
  const title = survey ? m.projects_list_column_surveys() : m.projects_list_column_missions();
  const newLabel = survey ? m.projects_editor_new_survey() : m.projects_editor_new_mission();
  const newHref = `/admin/projects/${projectId}/${what}/new`;
  return (
    <Section
      id={what}
      title={title}
      description={description}
      aside={
        <a href={newHref} className={buttonVariants({ size: 'sm' })}>
          <span aria-hidden="true">+</span> {newLabel}
        </a>
      }
    >
      {load.status === 'loading' ? (
        <RowsSkeleton label={survey ? m.projects_surveys_loading() : m.projects_missions_loading()} />
      ) : load.status !== 'ready' ? (
        <Failed title={survey ? m.projects_surveys_failed() : m.projects_missions_failed()} message={load.message} onRetry={reload} />
      ) : load.data.items.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
          <p>{empty}</p>
          <a href={newHref} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
            {newLabel}
          </a>
        </div>
      ) : (
        <ul aria-label={title} className="flex flex-col divide-y divide-border rounded-lg border border-border">
          {load.data.items.map((item) => (
            <ListRow key={item.id} item={item} words={words(item)} href={`/admin/projects/${projectId}/${what}/${item.id}`} projectStatus={projectStatus} />
          ))}
        </ul>
      )}
    </Section>
  );
}

export function SurveysSection(props: SectionProps<SurveyList>) {
  return (
    <ActivitiesSection
      {...props}
      subject="survey"
      words={(survey) => ({
        kind: survey.kind === 'native' ? m.projects_detail_form() : 'Alchemer',
        extra: survey.estimatedMinutes ? m.projects_survey_minutes({ minutes: formatCount(survey.estimatedMinutes) }) : null,
      })}
      description={m.projects_surveys_description()}
      empty={m.projects_surveys_empty()}
    />
  );
}

/** "1 entry", "2–5 entries", "up to 1 a day". */
export function entriesRule(entries: AdminMission['entries']): string {
  const count =
    entries.min === entries.max
      ? m.projects_entries_count({ count: entries.min })
      : m.projects_entries_range({ min: formatCount(entries.min), max: formatCount(entries.max) });
  return entries.perDay ? m.projects_entries_per_day({ entries: count, perDay: formatCount(entries.perDay) }) : count;
}

export function MissionsSection(props: SectionProps<MissionList>) {
  return (
    <ActivitiesSection
      {...props}
      subject="mission"
      words={(mission) => ({
        kind: mission.entries.perDay === 1 && mission.entries.max > 1 ? m.projects_missions_kind_diary() : m.projects_missions_kind_mission(),
        extra: entriesRule(mission.entries),
      })}
      description={m.projects_missions_description()}
      empty={m.projects_missions_empty()}
    />
  );
}
