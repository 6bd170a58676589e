/**
 * The review inbox (`/admin/review`, docs/product.md §2.5): one queue of mission entries across
 * every project, oldest first, so staff see what waits without going dashboard → project → mission.
 * It is the mission's review workspace with another source: the same filter bar, rows, bulk approve,
 * entry (`ReviewDetail`, decision panel, reason templates of the entry's project) and keys (j/k,
 * a, c, r, n, ?), plus a project and a mission choice; rows come 20 at a time by cursor ("Load
 * more", and j past the last row loads the next ones). The filters and the open entry are kept in
 * the address (`?status=&q=&from=&to=&probes=&projectId=&missionId=&submission=`).
 *
 * What it shares with the mission's workspace is the review session (`use-review-session.tsx`); its
 * own: the rows by cursor, the project and mission choices, the row worked out after a decision
 * (gone when the status filter no longer keeps it) and the sidebar's count asked again.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ReviewInboxItem, ReviewInboxPage } from '../../../shared/review.ts';
import { apiGet, withQuery } from '../../../platform/api.ts';
import { m } from '../../../shared/i18n.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { errorMessage } from '../../../lib/form-errors.ts';
import type { Load } from '../../../lib/resource.ts';
import { useResource } from '../../../lib/resource.ts';
import { refreshReviewCount } from '../../../lib/review-count.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { fullNameOf } from '../../../lib/user.ts';
import { cn } from '../../../lib/utils.ts';
import { toast } from '../../../stores/toasts.ts';
import { Loading } from '../../../components/states/Loading.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Bone } from '../../../components/ui/skeleton.tsx';
import { Card } from '../../../components/ui/card.tsx';
import type { ListPage } from '../../../shared/list.ts';
import { FilterSelect, PhoneFolded } from '../admin-kit.tsx';
import {
  filterCount,
  INBOX_PAGE,
  inboxPage,
  inboxQuery,
  leavesInbox,
  readInboxLocation,
  writeInboxLocation,
  type InboxFilters,
  type InboxLocation,
  type QueuePage,
} from './logic.ts';
import { ReviewDetail } from './ReviewDetail.tsx';
import { QueueFilterBar, ReviewQueue } from './ReviewQueue.tsx';
import { useReasonTemplates } from './templates.ts';
import { ReviewPanes, ShortcutsButton, useReviewSession } from './use-review-session.tsx';

/** What is loaded: every row so far, the cursor of the next ones, how many match in all. */
interface Loaded {
  items: ReviewInboxItem[];
  nextCursor: string | null;
  total: number;
}

const ALL = 'all';

/** The loaded rows as the queue component's list page (one page: "Load more" instead of a pager). */
const asListPage = (data: Loaded): ListPage<ReviewInboxItem> => ({ items: data.items, total: data.total, page: 1, pageSize: Math.max(1, data.items.length) });

/** Every loaded row as one queue page (a move past the last one loads more). */
const pageOf = (data: Loaded): QueuePage =>
  inboxPage(
    data.items.map((item) => item.id),
    data.total,
  );

/** The address is read once mounted (the page is prerendered: the first render knows no address). */
export default function ReviewInbox() {
  const [initial, setInitial] = useState<InboxLocation | null>(null);
  useEffect(() => setInitial(readInboxLocation(location.search)), []);
  if (initial === null) {
    return (
      <Loading label={m.review_queue_loading()} className="flex flex-col gap-4">
        <Bone className="h-32 w-full" />
        <Bone className="h-64 w-full xl:w-96" />
      </Loading>
    );
  }
  return <Inbox initial={initial} />;
}

function Inbox({ initial }: { initial: InboxLocation }) {
  const [filters, setFilters] = useState<InboxFilters>(initial.filters);
  const [loadingMore, setLoadingMore] = useState(false);

  const projects = useResource<{ items: { id: number; name: string }[] }>('/api/admin/projects?pageSize=100&sort=name');
  const missions = useResource<{ items: { id: number; title: string }[] }>(
    filters.projectId === null ? null : `/api/admin/projects/${filters.projectId}/missions`,
  );

  const firstUrl = withQuery('/api/admin/submissions', inboxQuery(filters, INBOX_PAGE));

  const session = useReviewSession<ReviewInboxItem, Loaded>({
    initialOpenId: initial.submission,
    url: firstUrl,
    pageOf,
    rowLabel: (item) => `${fullNameOf(item.user) || item.user.email}, ${item.project.name}`,
    // Past the loaded rows: the next ones are loaded and the first of them opens.
    onTurnPage: (step, data): number | null | Promise<number | null> =>
      step.page === 1 ? (data?.items[0]?.id ?? null) : loadMore().then((ids: number[]) => ids[0] ?? null),
    pointsOf: (submission, data) => data?.items.find((item) => item.id === submission.id)?.mission.points ?? null,
    // The entry leaves the inbox when the status filter no longer keeps it.
    afterDecision: (submission, { data }) => {
      void refreshReviewCount();
      if (data === null) return null;
      const { items, total } = data;
      const gone = items.some((item) => item.id === submission.id) && leavesInbox(filters, submission.status);
      const rest = gone
        ? items.filter((item) => item.id !== submission.id)
        : items.map((item) => (item.id === submission.id ? { ...item, status: submission.status } : item));
      return { ...data, items: rest, total: gone ? Math.max(0, total - 1) : total };
    },
    onBulkApproved: () => void refreshReviewCount(),
    addressOf: (submission, other) => writeInboxLocation({ filters, submission }, other),
  });
  const { loaded, setData, startOver } = session;

  /** The rows after the loaded ones; resolves with the new rows' ids (none on failure, said in a toast). */
  const loadMore = useCallback(async (): Promise<number[]> => {
    const current = loaded();
    if (!current || !current.nextCursor) return [];
    setLoadingMore(true);
    try {
      const page = await apiGet<ReviewInboxPage>(withQuery('/api/admin/submissions', inboxQuery(filters, INBOX_PAGE, current.nextCursor)));
      const known = new Set(current.items.map((item) => item.id));
      const fresh = page.items.filter((item) => !known.has(item.id));
      setData({ items: [...current.items, ...fresh], nextCursor: page.nextCursor, total: page.total });
      return fresh.map((item) => item.id);
    } catch (error) {
      if (!handleSessionLost(error)) toast({ title: m.review_inbox_more_failed(), description: errorMessage(error), variant: 'destructive' });
      return [];
    } finally {
      setLoadingMore(false);
    }
  }, [filters, loaded, setData]);

  function applyFilters(next: InboxFilters) {
    setFilters(next);
    startOver();
  }

  const { load, openItem } = session;
  const queueLoad: Load<ListPage<ReviewInboxItem>> = load.status === 'ready' ? { status: 'ready', data: asListPage(load.data) } : load;
  const more = load.status === 'ready' && load.data.nextCursor !== null;

  const projectOptions = [
    { value: ALL, label: m.review_all_projects() },
    ...(projects.load.status === 'ready' ? projects.load.data.items.map((project) => ({ value: String(project.id), label: project.name })) : []),
  ];
  // A project in the address that is not in the list (yet): still named, by its number.
  if (filters.projectId !== null && !projectOptions.some((option) => option.value === String(filters.projectId)))
    projectOptions.push({ value: String(filters.projectId), label: m.review_project_number({ id: String(filters.projectId) }) });
  const missionOptions = [
    { value: ALL, label: filters.projectId === null ? m.review_choose_project_first() : m.review_all_missions() },
    ...(missions.load.status === 'ready' ? missions.load.data.items.map((mission) => ({ value: String(mission.id), label: mission.title })) : []),
  ];
  if (filters.missionId !== null && !missionOptions.some((option) => option.value === String(filters.missionId)))
    missionOptions.push({ value: String(filters.missionId), label: m.review_mission_number({ id: String(filters.missionId) }) });

  return (
    <section aria-label={m.review_inbox_label()} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          {withNodes((marks) => m.review_inbox_intro({ keys: marks.keys }), {
            // Keys only where there is a keyboard to press them: not on phones and touch screens.
            keys: (
              <span className="hidden sm:pointer-fine:inline">
                {withNodes((marks) => m.review_inbox_intro_keys({ next: marks.next, previous: marks.previous }), {
                  next: <kbd className="rounded border border-border bg-muted px-1.5 font-mono">j</kbd>,
                  previous: <kbd className="rounded border border-border bg-muted px-1.5 font-mono">k</kbd>,
                })}
              </span>
            ),
          })}
        </p>
        <ShortcutsButton session={session} />
      </div>

      <PhoneFolded
        count={filterCount(filters) + (filters.projectId === null ? 0 : 1) + (filters.missionId === null ? 0 : 1)}
        className={cn(session.openId !== null && 'hidden xl:flex')}
      >
        <Card variant="flat" className="flex flex-col gap-3 p-4 sm:p-5">
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[16.5rem_minmax(0,22rem)]">
            <FilterSelect<string>
              label={m.review_project()}
              value={filters.projectId === null ? ALL : String(filters.projectId)}
              options={projectOptions}
              onChange={(value) => applyFilters({ ...filters, projectId: value === ALL ? null : Number(value), missionId: null })}
            />
            <FilterSelect<string>
              label={m.review_mission()}
              value={filters.missionId === null ? ALL : String(filters.missionId)}
              options={missionOptions}
              onChange={(value) => applyFilters({ ...filters, missionId: value === ALL ? null : Number(value) })}
            />
          </div>
          <QueueFilterBar filters={filters} onApply={(next) => applyFilters({ ...filters, ...next })} />
        </Card>
      </PhoneFolded>

      {/* One column of at most the screen's width on phones (a long project · mission line is cut, not widening the page). */}
      <ReviewPanes
        session={session}
        className="grid grid-cols-1 items-start gap-6 xl:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]"
        queue={
          <ReviewQueue<ReviewInboxItem>
            load={queueLoad}
            {...session.queueProps}
            filters={filters}
            page={1}
            onPageChange={() => undefined}
            missionLive
            rowDetail={(item) => (
              <span className="truncate text-xs text-muted-foreground">
                {item.project.name} · {item.mission.title}
              </span>
            )}
            footer={
              more ? (
                <Button variant="outline" onClick={() => void loadMore()} loading={loadingMore}>
                  {m.review_inbox_load_more()}
                </Button>
              ) : null
            }
          />
        }
        detail={(openId) => (
          <InboxDetail
            // Not keyed by the project: an entry opened from the address is shown before the list
            // has its row, and its row coming must not mount it again (a video playing, a reason typed).
            key={`${openId}-${session.detailVersion}`}
            projectId={openItem?.project.id ?? filters.projectId}
            submissionId={openId}
            mission={openItem ? openItem.mission : null}
            projectName={openItem?.project.name ?? null}
            {...session.detailProps}
          />
        )}
      />
    </section>
  );
}

/** The open entry with its project's reason templates (an entry belongs to one project: its row, once the list has it, names it). */
function InboxDetail({
  projectId,
  projectName,
  ...props
}: Omit<Parameters<typeof ReviewDetail>[0], 'templates'> & { projectId: number | null; projectName: string | null }) {
  const templates = useReasonTemplates(projectId);
  return (
    <div className="flex flex-col gap-3">
      {projectName && props.mission && (
        <p className="text-sm text-muted-foreground">
          {projectName} · {props.mission.title}
        </p>
      )}
      <ReviewDetail {...props} templates={templates} />
    </div>
  );
}
