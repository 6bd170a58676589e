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
import { Section } from './admin-kit.tsx';
import { ProjectsSection } from './projects/ProjectsSection.tsx';

/** The charts (recharts), loaded once the numbers are on screen. */
const DashboardCharts = lazy(() => import('./DashboardCharts.tsx'));

const NUMBER = new Intl.NumberFormat('en-GB');
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
  return value.map((each) => `${each.value.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${each.currency}`).join(' · ');
}

/** How long an entry has waited: "less than an hour", "5 hours", "3 days". */
export function ageLabel(hours: number): string {
  if (hours < 1) return 'less than an hour';
  if (hours < 48) return hours === 1 ? '1 hour' : `${hours} hours`;
  const days = Math.floor(hours / 24);
  return `${days} days`;
}

/** "1 entry waits for review" / "12 entries wait for review". */
const waitingWords = (count: number) => (count === 1 ? 'entry waits for review' : 'entries wait for review');

function Stat({ value, label, href, note }: { value: number; label: string; href?: string; note?: ReactNode }) {
  const number = <span className="text-3xl font-semibold tracking-tight text-foreground tabular-nums">{NUMBER.format(value)}</span>;
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
          At a glance
        </h2>
        <p className="text-xs text-muted-foreground">
          Counted <time dateTime={data.generatedAt}>{formatDateTime(data.generatedAt)}</time>
        </p>
      </div>
      <ul className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat value={review.waiting} label={waitingWords(review.waiting)} href={DASHBOARD_LINKS.review} />
        <Stat value={participants.total} label={participants.total === 1 ? 'participant' : 'participants'} href={DASHBOARD_LINKS.participants} />
        <Stat value={participants.active30d} label="active in the last 30 days" href={DASHBOARD_LINKS.active} />
        <Stat value={participants.newThisWeek} label="new this week" href={DASHBOARD_LINKS.newThisWeek(participants.weekStart)} />
        <Stat
          value={points.pending}
          label="points pending this month"
          note={<span className="text-xs text-muted-foreground">{NUMBER.format(points.available)} available</span>}
        />
        <Stat value={clientErrors.total} label={clientErrors.total === 1 ? 'client error' : 'client errors'} href={DASHBOARD_LINKS.clientErrors} />
        <Stat
          value={rewards.waiting}
          label={rewards.waiting === 1 ? 'reward request waits for approval' : 'reward requests wait for approval'}
          href={DASHBOARD_LINKS.rewardRequests}
          note={
            rewards.toDeliver > 0 ? (
              <span className="text-xs text-muted-foreground">{NUMBER.format(rewards.toDeliver)} approved, to send by hand</span>
            ) : undefined
          }
        />
        <Stat
          value={rewards.outstandingPoints}
          label="points outstanding (available and held)"
          note={
            <span className="text-xs text-muted-foreground">
              {rewards.value.length > 0 ? `worth ${valueWords(rewards.value)}` : 'no currency priced yet'}
              {rewards.held > 0 ? ` · ${NUMBER.format(rewards.held)} held` : ''}
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
        waiting <time dateTime={entry.submittedAt}>{ageLabel(entry.ageHours)}</time>
      </span>
    </li>
  );
}

function Waiting({ review }: { review: DashboardAnswer['review'] }) {
  return (
    <Section
      id="dashboard-review"
      title="Waiting for review"
      description={review.waiting === 0 ? 'No entry waits for review.' : `${NUMBER.format(review.waiting)} ${waitingWords(review.waiting)}; the oldest first.`}
      aside={
        <a href={DASHBOARD_LINKS.review} className={`${link} text-sm`}>
          Open the review queue
        </a>
      }
    >
      {review.oldest.length > 0 && (
        <ul aria-label="Oldest entries waiting for review" className="-my-2.5">
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
          {NUMBER.format(project.completed)} of {NUMBER.format(project.members)} {project.members === 1 ? 'member' : 'members'} ({share}%)
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
      title="Completion in live projects"
      description={`Members who have submitted something in the project: a mission entry or a survey (drafts do not count).${
        projects.length >= DASHBOARD_PROJECTS ? ` The ${DASHBOARD_PROJECTS} most recently updated live projects.` : ''
      }`}
    >
      {projects.length === 0 ? (
        <p className="text-sm text-muted-foreground">No project is live.</p>
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
      <LoadingNote label="Loading the charts…" />
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
    <Section id="dashboard-activity" title="Activity" description="Participant accounts created per week, and mission entries submitted per day (UTC).">
      <Later fallback={<ChartsSkeleton />}>
        <DashboardCharts data={data} />
      </Later>
    </Section>
  );
}

function NumbersSkeleton() {
  return (
    <div aria-busy="true" className="flex flex-col gap-3">
      <LoadingNote label="Counting…" />
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
            <ChevronRightIcon className="size-4 shrink-0 text-muted-foreground" />
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
  if (!ready) return <Loading label="Loading the dashboard…" />;

  return (
    <div className="flex flex-col gap-6">
      <p className="text-muted-foreground">Welcome back, {auth.user.firstName}. Here is where things stand.</p>
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
        <Failed title="We could not count the dashboard's numbers" message={load.message} onRetry={reload} />
      )}
      <nav aria-label="Admin screens">
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          <Tile href="/admin/users" title="Users">
            Invite people, change roles, disable accounts.
          </Tile>
          <Tile href="/admin/gallery" title="Gallery">
            Browse the photos participants uploaded.
          </Tile>
          <Tile href="/admin/forms" title="Forms">
            Build the forms surveys and missions use.
          </Tile>
          <Tile href="/admin/tools#contact-messages" title="Contact messages">
            What people sent through the contact form.
          </Tile>
          {isAdmin && (
            <Tile href="/admin/tools#data-deletion-requests" title="Data-deletion requests">
              Confirmed requests to delete an account.
            </Tile>
          )}
          <Tile href="/admin/tools" title="Tools">
            Points bulk update, exports{isAdmin ? ', site switches' : ''}.
          </Tile>
        </ul>
      </nav>
      <ProjectsSection />
    </div>
  );
}
