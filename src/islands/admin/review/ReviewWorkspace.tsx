/**
 * The review workspace of a mission: the queue and one submission at a time — beside the queue on
 * wide screens, instead of it on phones (with "Back to the queue"). The filters, the page and the
 * open submission are kept in the address (`?status=&q=&from=&to=&probes=&page=&submission=`).
 *
 * Going through hundreds: j/k open the next or previous row (across pages), `a` approves (a toast
 * confirms) and opens what comes next, `c`/`r` put the cursor in the reason, `n` in a new note,
 * `?` lists the keys. After every decision the page is asked again, so an entry that left the
 * queue makes room and nothing is skipped (`stepAfterDecision`).
 *
 * What it shares with the review inbox (rows, open entry, keys, decisions, panes) is the review
 * session (`use-review-session.tsx`); its own: the mission's queue, numbered pages, the page asked
 * again after a decision.
 */
import { useCallback, useRef, useState } from 'react';
import type { AdminMission } from '../../../shared/missions.ts';
import type { ListPage } from '../../../shared/list.ts';
import type { AdminProject } from '../../../shared/projects.ts';
import type { ReviewQueueItem } from '../../../shared/review.ts';
import { apiGet, withQuery } from '../../../platform/api.ts';
import { m } from '../../../shared/i18n.ts';
import { cn } from '../../../lib/utils.ts';
import { Card } from '../../../components/ui/card.tsx';
import { PER_PAGE, PhoneFolded } from '../admin-kit.tsx';
import { filterCount, pickOnPage, queueQuery, readLocation, writeLocation, type QueueFilters, type QueuePage } from './logic.ts';
import { ReviewDetail } from './ReviewDetail.tsx';
import { QueueFilterBar, ReviewQueue } from './ReviewQueue.tsx';
import { useReasonTemplates } from './templates.ts';
import { ReviewPanes, ShortcutsButton, useReviewSession } from './use-review-session.tsx';

type QueueData = ListPage<ReviewQueueItem>;

/** Where the queue's answer stands: its rows, its page and page size, how many in all. */
const pageOf = (data: QueueData): QueuePage => ({ ids: data.items.map((item) => item.id), page: data.page, pageSize: data.pageSize, total: data.total });

export function ReviewWorkspace({ project, mission }: { project: AdminProject; mission: AdminMission }) {
  const [initial] = useState(() => readLocation(location.search));
  const [filters, setFilters] = useState<QueueFilters>(initial.filters);
  const [page, setPage] = useState(initial.page);
  /** A move to another page: the row to open there once it comes. */
  const pickRef = useRef<'first' | 'last' | null>(null);
  const templates = useReasonTemplates(project.id);

  const url = withQuery(`/api/admin/missions/${mission.id}/submissions`, queueQuery(filters, page, PER_PAGE));

  const session = useReviewSession<ReviewQueueItem, QueueData>({
    initialOpenId: initial.submission,
    url,
    pageOf,
    openOnLoad: (data) => {
      const pick = pickRef.current;
      pickRef.current = null;
      return pick
        ? pickOnPage(
            data.items.map((item) => item.id),
            pick,
          )
        : null;
    },
    onTurnPage: (step) => {
      pickRef.current = step.pick;
      changePage(step.page);
      return null;
    },
    pointsOf: () => mission.points,
    // The page is asked again: an entry that left the queue makes room and nothing is skipped.
    afterDecision: async (_submission, { retry }) => {
      try {
        return await apiGet<QueueData>(url);
      } catch {
        retry();
        return null;
      }
    },
    addressOf: (submission, other) => writeLocation({ filters, page, submission }, other),
  });
  const { setSelected, startOver } = session;

  const changePage = useCallback(
    (next: number) => {
      setPage(next);
      setSelected(new Set());
    },
    [setSelected],
  );

  function applyFilters(next: QueueFilters) {
    setFilters(next);
    setPage(1);
    startOver();
  }

  return (
    <section id="review" aria-labelledby="review-heading" className="flex scroll-mt-20 flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h2 id="review-heading" className="text-xl font-semibold tracking-tight">
            {m.review_workspace_title()}
          </h2>
          <p className="text-sm text-muted-foreground">{mission.review === 'manual' ? m.review_workspace_manual() : m.review_workspace_automatic()}</p>
        </div>
        <ShortcutsButton session={session} />
      </div>

      <PhoneFolded count={filterCount(filters)} className={cn(session.openId !== null && 'hidden xl:flex')}>
        <Card variant="flat" className="p-4 sm:p-5">
          <QueueFilterBar filters={filters} onApply={applyFilters} />
        </Card>
      </PhoneFolded>

      <ReviewPanes
        session={session}
        className="grid items-start gap-6 xl:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]"
        queue={
          <ReviewQueue
            load={session.load}
            {...session.queueProps}
            filters={filters}
            page={page}
            onPageChange={changePage}
            missionLive={mission.status === 'live'}
          />
        }
        detail={(openId) => (
          <ReviewDetail key={`${openId}-${session.detailVersion}`} submissionId={openId} mission={mission} templates={templates} {...session.detailProps} />
        )}
      />
    </section>
  );
}
