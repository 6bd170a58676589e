/**
 * `/` (home): what the participant has to do, what waits for review and what is done — open
 * surveys, missions and mission groups as cards (project, title, points, estimated time, closing
 * date, progress), each linking to its screen; an empty state that says what to expect; the
 * points balance beside the heading; for moderators and admins, a card saying how many entries wait
 * for review, with the way to the admin area; what waits in this phone's outbox (`WaitingToSend.tsx`). Data: `GET /api/home` (and `GET /api/account/points`).
 */
import type { HomeAnswer, HomeDiary, HomeItem, HomeList } from '../../shared/projects.ts';
import { useResource } from '../../lib/resource.ts';
import { Failed } from '../../components/states/Failed.tsx';
import { LoadingNote } from '../../components/states/Loading.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../lib/utils.ts';
import { CheckCircleIcon, Icon } from '../../components/icons.tsx';
import { diaryTodayLabel, streakLabel } from './diary-labels.ts';
import { closesLabel, closesSoon, entriesProgressLabel, minutesLabel, opensLabel, percent, pointsLabel, stateLabel } from '../../lib/labels.ts';
import { Bone, CalendarIcon, ClockIcon, MetaItem, ProgressBar, StarIcon } from './parts.tsx';
import PointsPill from '../../components/PointsPill.tsx';
import { HomeAnnouncements } from './HomeAnnouncements.tsx';
import { WaitingToSend } from './WaitingToSend.tsx';
import { formatCount, m } from '../../shared/i18n.ts';

/** What a card says of its kind (called when shown: in the page's language). */
const KIND_LABELS: Readonly<Record<HomeItem['kind'], () => string>> = {
  survey: m.participant_survey_heading,
  mission: m.participant_mission_heading,
  mission_group: m.participant_group_heading,
};

/** The screen of an item. */
export function itemHref(item: Pick<HomeItem, 'kind' | 'id'>): string {
  const base = item.kind === 'survey' ? '/surveys' : item.kind === 'mission' ? '/missions' : '/mission-groups';
  return `${base}/${item.id}`;
}

function Heading() {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-x-6 gap-y-2">
      <h1 className="text-3xl font-semibold tracking-tight">{m.participant_home_title()}</h1>
      {/* The points balance and what is pending, linking to the history on /account. */}
      <PointsPill />
    </div>
  );
}

/** At least a screen tall, loading or loaded, so the footer does not jump when the lists arrive (CLS). */
const HOME_COLUMN = 'min-h-dvh';

/** The island of `/`. */

/** A streak's flame: drawn here, the only screen that shows one. */
const FlameIcon = (props: { className?: string }) => (
  <Icon {...props}>
    <path d="M8.5 14.5A2.5 2.5 0 0 0 11 12c0-1.38-.5-2-1-3-1.07-2.14-.22-4.05 2-6 .5 2.5 2 4.9 4 6.5 2 1.6 3 3.5 3 5.5a7 7 0 1 1-14 0c0-1.15.43-2.29 1-3a2.5 2.5 0 0 0 2.5 2.5z" />
  </Icon>
);

export default function Home() {
  const { load, reload } = useResource<HomeAnswer>('/api/home');
  if (load.status === 'loading') {
    // The empty state, hidden: shown instead of the skeleton once the page's early answer says
    // there is nothing yet (home-empty.ts), before React renders it.
    return (
      <div aria-busy="true" className={HOME_COLUMN}>
        <Heading />
        <HomeSkeleton />
        <EmptyState early />
      </div>
    );
  }
  if (load.status !== 'ready')
    return (
      <>
        <WaitingToSend />
        <Failed heading={m.participant_home_title()} title={m.participant_home_load_failed()} message={load.message} onRetry={reload} />
      </>
    );
  const { todo, submitted, done, staff, announcements } = load.data;
  const nothingYet = todo.length === 0 && submitted.length === 0 && done.length === 0;

  return (
    <div className={HOME_COLUMN}>
      <Heading />
      {staff && <StaffCard reviewWaiting={staff.reviewWaiting} />}
      <HomeAnnouncements items={announcements} />
      <WaitingToSend />
      {nothingYet ? (
        <EmptyState />
      ) : (
        <div className="flex flex-col gap-10">
          <Section id="todo" title={m.participant_home_todo()} items={todo} empty={m.participant_home_todo_empty()} />
          {submitted.length > 0 && (
            <Section id="submitted" title={m.participant_home_submitted()} note={m.participant_home_submitted_note()} items={submitted} />
          )}
          {done.length > 0 && <Section id="done" title={m.participant_home_done()} items={done} />}
        </div>
      )}
    </div>
  );
}

/** "12 entries wait for review" (singular "1 entry waits for review"), as the staff card says it. */
export function reviewWaitingLabel(count: number): string {
  return count === 0 ? m.participant_home_review_none() : m.participant_home_review_waiting({ count });
}

/** Moderators and admins: what waits for them (the review queue) and the way to the admin area. */
export function StaffCard({ reviewWaiting }: { reviewWaiting: number }) {
  const link = 'font-medium text-primary underline underline-offset-4 hover:no-underline';
  return (
    <Card asChild className="mb-6 flex flex-col gap-1 border-primary/40 bg-primary/5 px-5 py-4">
      <section aria-labelledby="home-staff">
        <h2 id="home-staff" className="text-sm font-medium text-muted-foreground">
          {m.participant_home_staff()}
        </h2>
        <p className="text-base">
          <a href="/admin/review" className={link}>
            {reviewWaitingLabel(reviewWaiting)}
          </a>
          <span aria-hidden="true" className="text-muted-foreground">
            {' · '}
          </span>{' '}
          <a href="/admin" className={link}>
            {m.participant_home_open_admin()}
          </a>
        </p>
      </section>
    </Card>
  );
}

/** `early`: hidden unless <html> carries the home-empty mark (`HOME_EMPTY_MARK`). */
function EmptyState({ early = false }: { early?: boolean }) {
  return (
    <Card
      asChild
      variant="dashed"
      className={cn('flex flex-col items-start gap-3 px-6 py-10 sm:items-center sm:text-center', early && 'hidden in-data-home-empty:flex')}
    >
      <section aria-labelledby="home-empty">
        <h2 id="home-empty" className="text-xl font-semibold tracking-tight">
          {m.participant_home_empty_title()}
        </h2>
        <p className="max-w-prose text-muted-foreground">{m.participant_home_empty_body()}</p>
        <p className="max-w-prose text-sm text-muted-foreground">{m.participant_home_empty_flow()}</p>
      </section>
    </Card>
  );
}

function Section({ id, title, note, items, empty }: { id: HomeList; title: string; note?: string; items: HomeItem[]; empty?: string }) {
  const headingId = `home-${id}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2
          id={headingId}
          aria-label={m.participant_home_section_label({ title, count: items.length })}
          className="flex items-center gap-2 text-xl font-semibold tracking-tight"
        >
          {title}
          <span className="rounded-full bg-muted px-2 py-0.5 text-sm font-medium text-muted-foreground tabular-nums">{formatCount(items.length)}</span>
        </h2>
        {note && <p className="text-sm text-muted-foreground">{note}</p>}
      </div>
      {items.length === 0 ? (
        <p className="flex items-center gap-2 rounded-lg border border-border bg-card px-4 py-4 text-sm text-muted-foreground">
          <CheckCircleIcon className="size-5 shrink-0 text-success" />
          {empty}
        </p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {items.map((item) => (
            <li key={`${item.kind}-${item.id}`} className="flex">
              <ItemCard item={item} list={id} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The badge of a card: its state while to do; "In review", "Approved" or "Done" after. */
export function cardBadge(item: Pick<HomeItem, 'state'>, list: HomeList): string | null {
  if (list === 'submitted') return m.participant_home_in_review();
  if (list === 'done') return item.state === 'approved' ? m.participant_home_approved() : m.participant_home_done();
  return stateLabel(item.state);
}

/** One card: the whole card is the link (a stretched link on the title), keyboard focus on the title. */
export function ItemCard({ item, list }: { item: HomeItem; list: HomeList }) {
  const finished = list !== 'todo';
  const upcoming = item.state === 'upcoming';
  const minutes = minutesLabel(item.estimatedMinutes);
  const when = finished ? null : upcoming ? opensLabel(item.opensAt) : closesLabel(item.closesAt);
  const progress = percent(item.progress);
  const showProgress = !finished && !upcoming && progress !== null && (progress > 0 || item.state === 'in_progress');
  const state = cardBadge(item, list);
  const titleId = `home-item-${item.kind}-${item.id}`;
  return (
    <Card
      asChild
      className="relative flex w-full flex-col gap-3 p-4 transition-colors has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-ring hover:border-primary/60"
    >
      <article aria-labelledby={titleId}>
        <div className="flex items-start justify-between gap-3">
          <p className="min-w-0 text-xs font-medium tracking-wide text-muted-foreground uppercase">
            {KIND_LABELS[item.kind]()}
            <span aria-hidden="true"> · </span>
            <span className="normal-case">{item.projectName}</span>
          </p>
          {state && (
            <Badge variant={finished ? 'outline' : 'secondary'} className="shrink-0">
              {state}
            </Badge>
          )}
        </div>
        <h3 id={titleId} className="text-lg leading-snug font-semibold break-words">
          <a href={itemHref(item)} className="text-foreground no-underline outline-none after:absolute after:inset-0 after:rounded-xl after:content-['']">
            {item.title}
          </a>
        </h3>
        <ul className="mt-auto flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
          <MetaItem icon={StarIcon} iconClassName="text-primary" className="font-medium text-foreground">
            {pointsLabel(item.points, item.pointsPerEntry)}
          </MetaItem>
          {minutes && !finished && <MetaItem icon={ClockIcon}>{minutes}</MetaItem>}
          {when && (
            <MetaItem icon={CalendarIcon} className={!upcoming && closesSoon(item.closesAt) && 'font-medium text-destructive'}>
              {when}
            </MetaItem>
          )}
        </ul>
        {item.diary && !finished ? (
          <DiaryLine diary={item.diary} title={item.title} />
        ) : (
          showProgress &&
          progress !== null && (
            <div className="flex items-center gap-3">
              <ProgressBar value={progress} label={m.participant_home_progress_of({ title: item.title })} className="flex-1" />
              <span className="text-xs font-medium text-muted-foreground tabular-nums" aria-hidden="true">
                {m.participant_home_percent({ percent: formatCount(progress) })}
              </span>
            </div>
          )
        )}
      </article>
    </Card>
  );
}

/** A diary's card: its entries of the maximum (the mission screen's words), the streak, and what today offers. */
function DiaryLine({ diary, title }: { diary: HomeDiary; title: string }) {
  const streak = streakLabel(diary.streak);
  const count = entriesProgressLabel(diary.entries, diary.max);
  return (
    <div className="flex flex-col gap-2" data-diary>
      <div className="flex items-center gap-3">
        <ProgressBar value={(Math.min(diary.entries, diary.max) / diary.max) * 100} label={m.participant_home_entries_of({ title })} className="flex-1" />
        <span className="text-xs font-medium text-muted-foreground tabular-nums">{count}</span>
      </div>
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className={diary.today === 'tomorrow' ? 'text-muted-foreground' : 'font-medium text-primary'}>{diaryTodayLabel(diary)}</span>
        {streak && (
          <span className="inline-flex items-center gap-1 text-muted-foreground">
            <FlameIcon className="size-4 text-primary" />
            {streak}
          </span>
        )}
      </p>
    </div>
  );
}

function HomeSkeleton() {
  return (
    <div className="flex flex-col gap-4 in-data-home-empty:hidden">
      <LoadingNote label={m.participant_home_loading()} />
      <Bone className="h-7 w-28" />
      <ul aria-hidden="true" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {[0, 1, 2].map((n) => (
          <Card key={n} asChild className="flex h-[9.5rem] flex-col gap-3 p-4">
            <li>
              <Bone className="h-3.5 w-36" />
              <Bone className="h-6 w-4/5" />
              <div className="mt-auto flex gap-4">
                <Bone className="h-4 w-20" />
                <Bone className="h-4 w-28" />
              </div>
              <Bone className="h-2 w-full" />
            </li>
          </Card>
        ))}
      </ul>
    </div>
  );
}
