/**
 * Pieces the programme's admin screens share: breadcrumbs, status badges, the completion bar,
 * loading skeletons shaped like the screens, and how a calendar day or a moment is written.
 * Loading goes through `src/lib/resource.ts`, its states through `src/components/states/`.
 */
import { useState, type ReactNode } from 'react';
import type { EntryStatus } from '../../../shared/mission-entries.ts';
import type { ActivityCounts, ActivityStatus, AdminProject, ProjectStatus } from '../../../shared/projects.ts';
import type { RoutePattern } from '../../../shared/routes.ts';
import { apiSend } from '../../../platform/api.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { toast } from '../../../stores/toasts.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { formatCalendarDay } from '../../../shared/dates.ts';
import { useResource, useRouteIds, type Resource } from '../../../lib/resource.ts';
import { cn } from '../../../lib/utils.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { NotFound } from '../../../components/states/NotFound.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Bone } from '../../../components/ui/skeleton.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ChevronRightIcon } from '../../../components/icons.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { ACTIVITY_STATUS_LABELS, completionPercent, ENTRY_STATUS_LABELS, hiddenLiveNote, PROJECT_STATUS_HELP, PROJECT_STATUS_LABELS } from './logic.ts';

/** A calendar day `YYYY-MM-DD` written out ("Mar 5, 2026"), the same in every time zone. */
export function formatDay(value: string | null | undefined): string {
  return value ? formatCalendarDay(value) : '';
}

/** "Mar 5, 2026 – Apr 1, 2026", "From Mar 5, 2026", "Until …", or "No dates". */
export function dayRange(start: string | null, end: string | null): string {
  if (start && end) return `${formatDay(start)} – ${formatDay(end)}`;
  if (start) return m.projects_day_range_from({ date: formatDay(start) });
  if (end) return m.projects_day_range_until({ date: formatDay(end) });
  return m.projects_day_range_none();
}

/** A moment in the reader's time zone, with its `<time>` element; "Not set" when empty. */
export function Moment({ value, empty = m.projects_not_set() }: { value: string | null | undefined; empty?: string }) {
  if (!value) return <span className="text-muted-foreground">{empty}</span>;
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}

/** "Opens … · Closes …" for an activity's list row. */
export function WindowText({ opensAt, closesAt }: { opensAt: string | null; closesAt: string | null }) {
  if (!opensAt && !closesAt) return <span className="text-muted-foreground">{m.projects_window_always_open()}</span>;
  return (
    <span>
      {opensAt && <>{withNodes((marks) => m.projects_window_opens(marks), { moment: <Moment value={opensAt} /> })}</>}
      {opensAt && closesAt && <span aria-hidden="true"> · </span>}
      {closesAt && (
        <>
          {opensAt ? <span className="sr-only">, </span> : null}
          {withNodes((marks) => m.projects_window_closes(marks), { moment: <Moment value={closesAt} /> })}
        </>
      )}
    </span>
  );
}

const STATUS_VARIANT = { draft: 'secondary', live: 'default', closed: 'outline', archived: 'outline' } as const;

export function ProjectStatusBadge({ status }: { status: ProjectStatus }) {
  return <Badge variant={STATUS_VARIANT[status]}>{PROJECT_STATUS_LABELS[status]}</Badge>;
}

/**
 * A survey's or mission's status. Given its project's status, a live one in a draft project is no
 * green badge: "Live — the project is a draft, members don’t see it yet".
 */
export function ActivityStatusBadge({ status, projectStatus }: { status: ActivityStatus; projectStatus?: ProjectStatus }) {
  const hidden = hiddenLiveNote(status, projectStatus);
  if (!hidden) return <Badge variant={STATUS_VARIANT[status]}>{ACTIVITY_STATUS_LABELS[status]}</Badge>;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5" data-hidden-live>
      <Badge variant="outline">{ACTIVITY_STATUS_LABELS[status]}</Badge>
      <span className="text-sm text-muted-foreground">— {hidden}</span>
    </span>
  );
}

/**
 * Under a live survey or mission of a draft project: members do not see it yet, and the way to
 * put the project live (the project's own "Go live", `PATCH /api/admin/projects/{id}`).
 */
export function HiddenLiveAlert({
  project,
  status,
  subject,
  onProjectLive,
}: {
  project: AdminProject;
  status: ActivityStatus;
  subject: 'survey' | 'mission';
  onProjectLive: () => void;
}) {
  const [busy, setBusy] = useState(false);
  if (!hiddenLiveNote(status, project.status)) return null;
  const goLive = async () => {
    setBusy(true);
    try {
      await apiSend<AdminProject>('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });
      toast({ title: m.projects_toast_project_live(), description: PROJECT_STATUS_HELP.live });
      onProjectLive();
    } catch (error) {
      if (!handleSessionLost(error)) toast({ title: m.projects_toast_project_live_failed(), description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Alert variant="info" title={subject === 'survey' ? m.projects_hidden_live_title_survey() : m.projects_hidden_live_title_mission()}>
      <p>{m.projects_hidden_live_text({ name: project.name })}</p>
      <Button size="sm" className="mt-3" loading={busy} onClick={() => void goLive()}>
        {m.projects_hidden_live_go()}
      </Button>
    </Alert>
  );
}

export function EntryStatusBadge({ status }: { status: EntryStatus }) {
  return <Badge variant={status === 'submitted' ? 'default' : status === 'draft' ? 'secondary' : 'outline'}>{ENTRY_STATUS_LABELS[status]}</Badge>;
}

/**
 * How many members submitted, as words and as a bar (submitted / members). The words carry the
 * numbers; the bar is decoration for the eye.
 */
export function CompletionBar({ counts, className }: { counts: ActivityCounts; className?: string }) {
  const percent = completionPercent(counts.submitted, counts.members);
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span>
          {withNodes((marks) => m.projects_completion_submitted({ count: counts.members, ...marks }), {
            submitted: <span className="font-semibold tabular-nums">{formatCount(counts.submitted)}</span>,
            members: <span className="tabular-nums">{formatCount(counts.members)}</span>,
          })}
        </span>
        <span className="text-muted-foreground tabular-nums">{m.projects_percent({ percent: formatCount(percent) })}</span>
      </div>
      <div aria-hidden="true" className="h-2 w-full overflow-hidden rounded-full bg-muted">
        <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <span className="text-xs text-muted-foreground tabular-nums">
        {counts.members > 0
          ? m.projects_completion_started_percent({
              count: formatCount(counts.started),
              percent: formatCount(completionPercent(counts.started, counts.members)),
            })
          : m.projects_completion_started({ count: formatCount(counts.started) })}
      </span>
    </div>
  );
}

export interface Crumb {
  label: string;
  href?: string;
}

/**
 * The one breadcrumb trail of the admin project pages: Dashboard › Projects › the project › what
 * follows (`rest`: the survey or mission, "Edit", "New survey"; its last is the current page, or the
 * project when there is nothing after it).
 */
export function projectCrumbs(project: { id: number; name: string }, ...rest: Crumb[]): Crumb[] {
  return [
    { label: m.projects_crumb_dashboard(), href: '/admin' },
    { label: m.projects_crumb_projects(), href: '/admin/projects' },
    rest.length > 0 ? { label: project.name, href: `/admin/projects/${project.id}` } : { label: project.name },
    ...rest,
  ];
}

/** Where this screen is: Dashboard › Projects › Project › Survey (the last one is the current page). */
export function Breadcrumbs({ items }: { items: Crumb[] }) {
  return (
    <nav aria-label={m.projects_breadcrumb()} className="mb-2 text-sm">
      <ol className="flex flex-wrap items-center gap-1 text-muted-foreground">
        {items.map((item, index) => (
          <li key={`${index}-${item.label}`} className="flex min-w-0 items-center gap-1">
            {index > 0 && <ChevronRightIcon className="size-3.5 shrink-0 rtl:-scale-x-100" />}
            {item.href ? (
              <a href={item.href} className="truncate rounded-sm text-primary underline-offset-4 hover:underline">
                {item.label}
              </a>
            ) : (
              <span aria-current="page" className="truncate text-foreground">
                {item.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/**
 * An admin page about one record its address names (`/admin/projects/{projectId}`,
 * `/admin/users/{userId}`): its skeleton while the id is read and the record loads; "No such …"
 * with a way back for a malformed id or a 404; a failure with "Try again"; then the page.
 */
export function RecordScreen<T>({
  pattern,
  path,
  loading,
  cards,
  missing,
  failed,
  children,
}: {
  pattern: RoutePattern;
  /** The API path from the address's ids. */
  path: (ids: Record<string, number>) => string;
  /** The skeleton's announcement and the heights of its cards. */
  loading: string;
  cards: number[];
  /** "No such …": the heading, where its link leads, the link's words and the sentence. */
  missing: { title: string; href: string; linkLabel: string; text: string };
  /** The failure's heading. */
  failed: string;
  children: (data: T, resource: Resource<T>) => ReactNode;
}) {
  const ids = useRouteIds(pattern);
  const resource = useResource<T>(ids ? path(ids) : null);
  const { load, reload } = resource;
  if (ids === undefined || (ids !== null && load.status === 'loading')) return <ScreenSkeleton label={loading} cards={cards} />;
  if (ids === null || load.status === 'missing') {
    return (
      <NotFound title={missing.title} href={missing.href} linkLabel={missing.linkLabel}>
        {missing.text}
      </NotFound>
    );
  }
  if (load.status === 'error') return <Failed title={failed} message={load.message} onRetry={reload} />;
  if (load.status !== 'ready') return null;
  return <>{children(load.data, resource)}</>;
}

/** The loading state of a whole screen: a heading line and cards of the final sizes, announced once. */
export function ScreenSkeleton({ label, cards = [12, 16, 20] }: { label: string; cards?: number[] }) {
  return (
    <Loading label={label} className="flex flex-col gap-6">
      <div className="flex flex-col gap-3">
        <Bone className="h-4 w-48" />
        <Bone className="h-9 w-72 max-w-full" />
      </div>
      {cards.map((height, index) => (
        <Card variant="flat" key={index} aria-hidden="true" className="p-6" style={{ height: `${height}rem` }}>
          <Bone className="mb-4 h-6 w-40" />
          <Bone className="mb-2 h-4 w-full" />
          <Bone className="h-4 w-2/3" />
        </Card>
      ))}
    </Loading>
  );
}

/** A heading row of a screen: the title (h1) with badges, a line under it, and the actions at the end. */
export function ScreenHeader({ title, badges, subtitle, actions }: { title: string; badges?: ReactNode; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-2 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1.5">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <h1 className="text-2xl font-semibold tracking-tight break-words sm:text-3xl">{title}</h1>
          {badges}
        </div>
        {subtitle && <p className="text-muted-foreground">{subtitle}</p>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/** A term and its value in a details list. */
export function Detail({ term, children, className }: { term: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('flex min-w-0 flex-col gap-1', className)}>
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{term}</dt>
      <dd className="min-w-0 text-sm break-words">{children}</dd>
    </div>
  );
}

/** Members / started / submitted as three numbers. */
export function CountsRow({ counts }: { counts: ActivityCounts }) {
  const items: [string, number][] = [
    [m.projects_counts_members(), counts.members],
    [m.projects_counts_started(), counts.started],
    [m.projects_counts_submitted(), counts.submitted],
  ];
  return (
    <dl className="grid grid-cols-3 gap-3">
      {items.map(([term, value]) => (
        <div key={term} className="flex flex-col gap-0.5 rounded-lg border border-border p-3">
          <dt className="text-xs font-medium text-muted-foreground">{term}</dt>
          <dd className="text-2xl font-semibold tabular-nums">{formatCount(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The results tab while its code or its numbers load: shaped like two question cards. */
export function ResultsSkeleton() {
  return (
    <Loading label={m.projects_results_loading()} className="flex flex-col gap-4">
      <Bone className="h-5 w-60" />
      <Bone className="h-56 w-full" />
      <Bone className="h-56 w-full" />
    </Loading>
  );
}

/**
 * A link to the form a survey or mission uses, named by the form's title at that version
 * ("Cooking habits, version 2"), with a note when a newer version is out.
 */
export function FormVersionLink({ formId, version, latest }: { formId: number; version: number; latest: number | null }) {
  // Until it comes (or if it does not), the link says "Form {id}".
  const { load } = useResource<{ definition: { title: string } }>(`/api/admin/forms/${formId}/versions/${version}`);
  const title = load.status === 'ready' ? load.data.definition.title || m.projects_form_untitled() : null;
  return (
    <span className="flex flex-col gap-0.5">
      <a href={`/admin/forms/${formId}`} className="text-primary underline-offset-4 hover:underline">
        {m.projects_form_version_link({ title: title ?? m.projects_form_fallback({ id: String(formId) }), version: String(version) })}
      </a>
      {latest !== null && latest > version && (
        <span className="text-xs text-muted-foreground">{m.projects_form_newer_version({ version: String(latest) })}</span>
      )}
    </span>
  );
}
