/**
 * `/admin`, the dashboard (docs/product.md §2.5): the site's numbers from one call
 * (`GET /api/admin/dashboard`, at most 10 s old), each a link to the list behind it; the oldest
 * entries waiting for review; completion of the live projects; sign-ups and submissions over time
 * (charts loaded on demand: recharts is not part of an admin page's first load); the ways to the
 * other admin screens; and the projects.
 */
import { lazy, type ReactNode } from 'react';
import { DASHBOARD_PROJECTS, type DashboardAnswer, type DashboardProject, type DashboardWaitingEntry } from '../../shared/dashboard.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useResource } from '../../lib/resource.ts';
import { useAuth } from '../../lib/use-auth.ts';
import { fullNameOf } from '../../lib/user.ts';
import { ChevronRightIcon } from '../../components/icons.tsx';
import { Failed } from '../../components/states/Failed.tsx';
import { Later } from '../../components/states/Later.tsx';
import { Loading, LoadingNote } from '../../components/states/Loading.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Bone } from '../../components/ui/skeleton.tsx';
import { withNodes } from '../../components/forms/rich-text.tsx';
import { currentLanguage, formatCount, m } from '../../shared/i18n.ts';
import { Section } from './admin-kit.tsx';
import { ProjectsSection } from './projects/ProjectsSection.tsx';

/** The charts (recharts), loaded once the numbers are on screen. */
const DashboardCharts = lazy(() => import('./DashboardCharts.tsx'));

const link = 'font-medium text-primary underline-offset-4 hover:underline';

/**
 * The filtered lists behind the numbers. The users list reads `role` and `from` (a UTC day);
 * `active=30d` (last active within 30 days) is the filter this asks of it.
 */
export const DASHBOARD_LINKS = {
  participants: '/admin/users?role=participant',
  active: '/admin/users?role=participant&active=30d',
  newThisWeek: (weekStart: string) => `/admin/users?role=participant&from=${weekStart}`,
  review: '/admin/review',
  entry: (entry: Pick<DashboardWaitingEntry, 'projectId' | 'missionId' | 'entryId'>) =>
    `/admin/projects/${entry.projectId}/missions/${entry.missionId}?submission=${entry.entryId}`,
  project: (id: number) => `/admin/projects/${id}`,
  clientErrors: '/admin/tools/client-errors',
  rewardRequests: '/admin/rewards/redemptions?status=requested',
  rewardsToDeliver: '/admin/rewards/redemptions?status=approved',
} as const;

/** "1,234.50 EUR · 987.00 USD": what outstanding points are worth at the settings' rates. */
export function valueWords(value: DashboardAnswer['rewards']['value']): string {
  return value
    .map((each) => `${each.value.toLocaleString(currentLanguage(), { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${each.currency}`)
    .join(' · ');
}

/** How long an entry has waited: "less than an hour", "5 hours", "3 days". */
export function ageLabel(hours: number): string {
  if (hours < 1) return m.admin_dashboard_age_under_hour();
  if (hours < 48) return m.admin_dashboard_age_hours({ count: hours });
  return m.admin_dashboard_age_days({ count: Math.floor(hours / 24) });
}

function Stat({ value, label, href, note }: { value: number; label: string; href?: string; note?: ReactNode }) {
  const number = <span className="text-3xl font-semibold tracking-tight text-foreground tabular-nums">{formatCount(value)}</span>;
  const words = <span className="text-sm text-muted-foreground">{label}</span>;
  return (
    <li>
      <Card className="h-full transition-colors has-[a:hover]:border-primary">
        {href ? (
          <a
            href={href}
            className="flex h-full flex-col gap-1 rounded-xl p-4 no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          >
            {number} {words}
            {note}
          </a>
        ) : (
          <p className="flex h-full flex-col gap-1 p-4">
            {number} {words}
            {note}
          </p>
        )}
      </Card>
    </li>
  );
}

function AtAGlance({ data }: { data: DashboardAnswer }) {
  const { participants, review, points, clientErrors, rewards } = data;
  return (
    <section aria-labelledby="dashboard-numbers-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id="dashboard-numbers-heading" className="text-xl font-semibold tracking-tight">
          {m.admin_dashboard_at_a_glance()}
        </h2>
        <p className="text-xs text-muted-foreground">
          {withNodes((marks) => m.admin_dashboard_counted(marks), { time: <time dateTime={data.generatedAt}>{formatDateTime(data.generatedAt)}</time> })}
        </p>
      </div>
      <ul className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat value={review.waiting} label={m.admin_dashboard_stat_waiting({ count: review.waiting })} href={DASHBOARD_LINKS.review} />
        <Stat value={participants.total} label={m.admin_dashboard_stat_participants({ count: participants.total })} href={DASHBOARD_LINKS.participants} />
        <Stat value={participants.active30d} label={m.admin_dashboard_stat_active()} href={DASHBOARD_LINKS.active} />
        <Stat value={participants.newThisWeek} label={m.admin_dashboard_stat_new()} href={DASHBOARD_LINKS.newThisWeek(participants.weekStart)} />
        <Stat
          value={points.pending}
          label={m.admin_dashboard_stat_points_pending()}
          note={<span className="text-xs text-muted-foreground">{m.admin_dashboard_points_available({ count: formatCount(points.available) })}</span>}
        />
        <Stat value={clientErrors.total} label={m.admin_dashboard_stat_client_errors({ count: clientErrors.total })} href={DASHBOARD_LINKS.clientErrors} />
        <Stat
          value={rewards.waiting}
          label={m.admin_dashboard_stat_reward_requests({ count: rewards.waiting })}
          href={DASHBOARD_LINKS.rewardRequests}
          note={
            rewards.toDeliver > 0 ? (
              <span className="text-xs text-muted-foreground">{m.admin_dashboard_to_deliver({ count: formatCount(rewards.toDeliver) })}</span>
            ) : undefined
          }
        />
        <Stat
          value={rewards.outstandingPoints}
          label={m.admin_dashboard_stat_outstanding()}
          note={
            <span className="text-xs text-muted-foreground">
              {rewards.value.length > 0 ? m.admin_dashboard_worth({ value: valueWords(rewards.value) }) : m.admin_dashboard_no_currency()}
              {rewards.held > 0 ? ` · ${m.admin_dashboard_held({ count: formatCount(rewards.held) })}` : ''}
            </span>
          }
        />
      </ul>
    </section>
  );
}

function WaitingEntry({ entry }: { entry: DashboardWaitingEntry }) {
  const who = fullNameOf(entry.participant) || entry.participant.email;
  return (
    <li className="flex flex-col gap-0.5 border-b border-border py-2.5 last:border-b-0 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4">
      <span className="min-w-0">
        <a href={DASHBOARD_LINKS.entry(entry)} className={link}>
          {entry.missionTitle}
          <span className="text-foreground"> · {who}</span>
        </a>
        <span className="block text-xs text-muted-foreground">{entry.projectName}</span>
      </span>
      <span className="shrink-0 text-sm text-muted-foreground tabular-nums">
        {withNodes((marks) => m.admin_dashboard_waiting_for(marks), { age: <time dateTime={entry.submittedAt}>{ageLabel(entry.ageHours)}</time> })}
      </span>
    </li>
  );
}

function Waiting({ review }: { review: DashboardAnswer['review'] }) {
  return (
    <Section
      id="dashboard-review"
      title={m.admin_dashboard_review_title()}
      description={review.waiting === 0 ? m.admin_dashboard_review_none() : m.admin_dashboard_review_some({ count: review.waiting })}
      aside={
        <a href={DASHBOARD_LINKS.review} className={`${link} text-sm`}>
          {m.admin_dashboard_open_review()}
        </a>
      }
    >
      {review.oldest.length > 0 && (
        <ul aria-label={m.admin_dashboard_oldest_waiting()} className="-my-2.5">
          {review.oldest.map((entry) => (
            <WaitingEntry key={entry.entryId} entry={entry} />
          ))}
        </ul>
      )}
    </Section>
  );
}

function ProjectCompletion({ project }: { project: DashboardProject }) {
  const share = Math.round(project.completion * 100);
  return (
    <li className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <a href={DASHBOARD_LINKS.project(project.id)} className={link}>
          {project.name}
        </a>
        <span className="text-sm text-muted-foreground tabular-nums">
          {m.admin_dashboard_completion_count({ completed: formatCount(project.completed), count: project.members, share: formatCount(share) })}
        </span>
      </div>
      <span aria-hidden="true" className="block h-2 overflow-hidden rounded-full bg-muted">
        <span className="block h-full rounded-full bg-primary" style={{ width: `${share}%` }} />
      </span>
    </li>
  );
}

function Completion({ projects }: { projects: DashboardProject[] }) {
  return (
    <Section
      id="dashboard-completion"
      title={m.admin_dashboard_completion_title()}
      description={[
        m.admin_dashboard_completion_description(),
        ...(projects.length >= DASHBOARD_PROJECTS ? [m.admin_dashboard_completion_most_recent({ count: formatCount(DASHBOARD_PROJECTS) })] : []),
      ].join(' ')}
    >
      {projects.length === 0 ? (
        <p className="text-sm text-muted-foreground">{m.admin_dashboard_no_live_project()}</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {projects.map((project) => (
            <ProjectCompletion key={project.id} project={project} />
          ))}
        </ul>
      )}
    </Section>
  );
}

function ChartsSkeleton() {
  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <LoadingNote label={m.admin_dashboard_loading_charts()} />
      {[0, 1].map((n) => (
        <div key={n} className="flex flex-col gap-3">
          <Bone className="h-5 w-40" />
          <Bone className="h-4 w-3/4" />
          <Bone className="h-[220px] w-full" />
        </div>
      ))}
    </div>
  );
}

function Activity({ data }: { data: DashboardAnswer }) {
  return (
    <Section id="dashboard-activity" title={m.admin_dashboard_activity()} description={m.admin_dashboard_activity_description()}>
      <Later fallback={<ChartsSkeleton />}>
        <DashboardCharts data={data} />
      </Later>
    </Section>
  );
}

function NumbersSkeleton() {
  return (
    <div aria-busy="true" className="flex flex-col gap-3">
      <LoadingNote label={m.admin_dashboard_counting()} />
      <Bone className="h-7 w-36" />
      <ul aria-hidden="true" className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        {[0, 1, 2, 3, 4, 5].map((n) => (
          <Card key={n} asChild className="flex h-[6.5rem] flex-col gap-2 p-4">
            <li>
              <Bone className="h-8 w-16" />
              <Bone className="h-4 w-24" />
            </li>
          </Card>
        ))}
      </ul>
    </div>
  );
}

function Tile({ href, title, children }: { href: string; title: string; children: ReactNode }) {
  return (
    <li>
      <Card className="h-full transition-colors hover:border-primary">
        <a
          href={href}
          className="flex h-full flex-col gap-1 rounded-xl p-4 no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          <span className="flex items-center justify-between gap-2 font-semibold text-foreground">
            {title}
            <ChevronRightIcon className="size-4 shrink-0 text-muted-foreground rtl:-scale-x-100" />
          </span>
          <span className="text-sm text-muted-foreground">{children}</span>
        </a>
      </Card>
    </li>
  );
}

/** /admin: the numbers, what waits, completion and activity, the ways to the other screens, and the projects. */
export default function Dashboard() {
  const auth = useAuth();
  const ready = auth.status === 'authenticated';
  const isAdmin = ready && auth.user.role === 'admin';
  const { load, reload } = useResource<DashboardAnswer>(ready ? '/api/admin/dashboard' : null);
  if (!ready) return <Loading label={m.admin_dashboard_loading()} />;

  return (
    <div className="flex flex-col gap-6">
      <p className="text-muted-foreground">{m.admin_dashboard_welcome({ name: auth.user.firstName })}</p>
      {load.status === 'ready' ? (
        <>
          <AtAGlance data={load.data} />
          <div className="grid gap-6 xl:grid-cols-2">
            <Waiting review={load.data.review} />
            <Completion projects={load.data.projects} />
          </div>
          <Activity data={load.data} />
        </>
      ) : load.status === 'loading' ? (
        <NumbersSkeleton />
      ) : (
        <Failed title={m.admin_dashboard_failed()} message={load.message} onRetry={reload} />
      )}
      <nav aria-label={m.admin_dashboard_screens_nav()}>
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          <Tile href="/admin/users" title={m.admin_dashboard_tile_users()}>
            {m.admin_dashboard_tile_users_text()}
          </Tile>
          <Tile href="/admin/gallery" title={m.admin_dashboard_tile_gallery()}>
            {m.admin_dashboard_tile_gallery_text()}
          </Tile>
          <Tile href="/admin/forms" title={m.admin_dashboard_tile_forms()}>
            {m.admin_dashboard_tile_forms_text()}
          </Tile>
          <Tile href="/admin/tools#contact-messages" title={m.admin_dashboard_tile_contact()}>
            {m.admin_dashboard_tile_contact_text()}
          </Tile>
          {isAdmin && (
            <Tile href="/admin/tools#data-deletion-requests" title={m.admin_dashboard_tile_deletion()}>
              {m.admin_dashboard_tile_deletion_text()}
            </Tile>
          )}
          <Tile href="/admin/tools" title={m.admin_dashboard_tile_tools()}>
            {isAdmin ? m.admin_dashboard_tile_tools_text_admin() : m.admin_dashboard_tile_tools_text()}
          </Tile>
        </ul>
      </nav>
      <ProjectsSection />
    </div>
  );
}
