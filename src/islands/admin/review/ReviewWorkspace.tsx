/**
 * The review workspace of a mission: the queue and one submission at a time — beside the queue on
 * wide screens, instead of it on phones (with "Back to the queue"). The filters, the page and the
 * open submission are kept in the address (`?status=&q=&from=&to=&probes=&page=&submission=`).
 *
 * Going through hundreds: j/k open the next or previous row (across pages), `a` approves (a toast
 * confirms) and opens what comes next, `c`/`r` put the cursor in the reason, `n` in a new note,
 * `?` lists the keys. After every decision the page is asked again, so an entry that left the
 * queue makes room and nothing is skipped (`stepAfterDecision`).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AdminMission } from '../../../shared/missions.ts';
import type { ListPage } from '../../../shared/list.ts';
import type { AdminProject } from '../../../shared/projects.ts';
import type { ReviewDecision, ReviewQueueItem, ReviewSubmission } from '../../../shared/review.ts';
import { apiGet, apiSend, withQuery } from '../../../platform/api.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import type { Load } from '../../../lib/resource.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { fullNameOf } from '../../../lib/user.ts';
import { cn } from '../../../lib/utils.ts';
import { toast } from '../../../stores/toasts.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { PER_PAGE } from '../admin-kit.tsx';
import { plural } from '../projects/logic.ts';
import {
  bulkResultText,
  pickOnPage,
  queueQuery,
  readLocation,
  stepAfterDecision,
  stepInQueue,
  writeLocation,
  type QueueFilters,
  type QueuePage,
  type QueueStep,
} from './logic.ts';
import { ReviewDetail, type DetailActions } from './ReviewDetail.tsx';
import { QueueFilterBar, ReviewQueue } from './ReviewQueue.tsx';
import { Kbd, ShortcutsHelp, useShortcuts } from './ShortcutsHelp.tsx';
import { keyOf, type ShortcutAction } from './shortcuts.ts';
import { useReasonTemplates } from './templates.ts';

type QueueData = ListPage<ReviewQueueItem>;

/** Where the queue's answer stands: its rows, its page and page size, how many in all. */
const pageOf = (data: QueueData): QueuePage => ({ ids: data.items.map((item) => item.id), page: data.page, pageSize: data.pageSize, total: data.total });

const WIDE = '(min-width: 80rem)';
const isWide = () => typeof matchMedia === 'function' && matchMedia(WIDE).matches;

export function ReviewWorkspace({ project, mission }: { project: AdminProject; mission: AdminMission }) {
  const [initial] = useState(() => readLocation(location.search));
  const [filters, setFilters] = useState<QueueFilters>(initial.filters);
  const [page, setPage] = useState(initial.page);
  const [openId, setOpenId] = useState<number | null>(initial.submission);
  const [load, setLoad] = useState<Load<QueueData>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const [bulkResult, setBulkResult] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  /** Bumped to load the open submission again (after a bulk approval included it). */
  const [detailVersion, setDetailVersion] = useState(0);
  const actionsRef = useRef<DetailActions | null>(null);
  const pickRef = useRef<'first' | 'last' | null>(null);
  const loadRef = useRef(load);
  loadRef.current = load;
  const detailRef = useRef<HTMLDivElement>(null);
  const templates = useReasonTemplates(project.id);

  const url = withQuery(`/api/admin/missions/${mission.id}/submissions`, queueQuery(filters, page, PER_PAGE));

  const open = useCallback((id: number | null, how: { focus?: boolean } = {}) => {
    setOpenId(id);
    if (id === null) return;
    const data = loadRef.current.status === 'ready' ? loadRef.current.data : null;
    const index = data ? data.items.findIndex((item) => item.id === id) : -1;
    const item = data?.items[index];
    setAnnouncement(
      item && data ? `${fullNameOf(item.user) || item.user.email}: ${(data.page - 1) * data.pageSize + index + 1} of ${data.total}` : 'Submission opened',
    );
    requestAnimationFrame(() => {
      document.querySelector(`[data-row-id="${id}"]`)?.scrollIntoView({ block: 'nearest' });
      const detail = detailRef.current;
      if (!detail) return;
      if (!isWide() || detail.getBoundingClientRect().top < 0) detail.scrollIntoView({ block: 'start' });
      // On phones the queue (and the row that had focus) goes away: focus moves to the entry.
      if (how.focus && !isWide()) detail.focus({ preventScroll: true });
    });
  }, []);

  // The queue's page.
  useEffect(() => {
    const controller = new AbortController();
    setLoad((current) => (current.status === 'ready' ? current : { status: 'loading' }));
    apiGet<QueueData>(url, { signal: controller.signal })
      .then((data) => {
        loadRef.current = { status: 'ready', data };
        setLoad(loadRef.current);
        const pick = pickRef.current;
        pickRef.current = null;
        if (pick) {
          const id = pickOnPage(
            data.items.map((item) => item.id),
            pick,
          );
          if (id !== null) open(id);
        }
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted || handleSessionLost(error)) return;
        setLoad({ status: 'error', message: errorMessage(error) });
      });
    return () => controller.abort();
    // `open` changes with the page only, and the page is part of the URL: no extra fetch.
  }, [url, attempt, open]);

  // The address keeps the state (a reload or a shared link opens the same view).
  useEffect(() => {
    const search = writeLocation({ filters, page, submission: openId }, location.search);
    if (search !== location.search) history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
  }, [filters, page, openId]);

  const changePage = useCallback((next: number) => {
    setPage(next);
    setSelected(new Set());
  }, []);

  function applyFilters(next: QueueFilters) {
    setFilters(next);
    setPage(1);
    setSelected(new Set());
    setBulkResult(null);
  }

  /** Follows a move through the queue; says so when there is nowhere to go. */
  const follow = useCallback(
    (step: QueueStep | { kind: 'stay' }): string | null => {
      switch (step.kind) {
        case 'select':
          open(step.id);
          return null;
        case 'page':
          pickRef.current = step.pick;
          changePage(step.page);
          return null;
        case 'none': {
          const text = step.edge === 'end' ? 'That was the last submission in this queue.' : 'This is the first submission in this queue.';
          setAnnouncement(text);
          return text;
        }
        case 'stay':
          return null;
      }
    },
    [open, changePage],
  );

  function move(delta: 1 | -1) {
    const current = loadRef.current;
    if (current.status !== 'ready') return;
    const text = follow(stepInQueue(pageOf(current.data), openId, delta));
    if (text) toast({ title: text });
  }

  /** After a decision: confirm it, ask for the page again, open what comes next. */
  const decided = useCallback(
    async (submission: ReviewSubmission, decision: ReviewDecision) => {
      const who = fullNameOf(submission.user) || submission.user.email;
      const before = loadRef.current.status === 'ready' ? pageOf(loadRef.current.data) : null;
      let step: QueueStep | { kind: 'stay' } = { kind: 'stay' };
      try {
        const fresh = await apiGet<QueueData>(url);
        loadRef.current = { status: 'ready', data: fresh };
        setLoad(loadRef.current);
        if (before) step = stepAfterDecision(before, pageOf(fresh), submission.id);
      } catch {
        setAttempt((n) => n + 1);
      }
      const last =
        step.kind === 'none'
          ? ' That was the last one in this queue.'
          : 'wrapped' in step && step.wrapped
            ? ' Back to the top of the queue for the ones skipped.'
            : '';
      const title = decision === 'approve' ? 'Entry approved' : decision === 'reject' ? 'Entry rejected' : 'Changes asked';
      const description =
        decision === 'approve'
          ? `${who}: the mission’s ${plural(mission.points, 'point', 'points')} are now available to them.`
          : decision === 'reject'
            ? `${who} is told why.`
            : `${who} is told what to change and can send the entry again.`;
      toast({ title, description: `${description}${last}` });
      follow(step);
    },
    [url, mission.points, follow],
  );

  async function bulkApprove() {
    const ids = [...selected];
    try {
      const result = await apiSend<{ approved: number; skipped: number }>('POST', '/api/admin/submissions/review', { ids, decision: 'approve' });
      const text = bulkResultText(result);
      setBulkResult(text);
      toast({ title: 'Bulk approval', description: text });
      setSelected(new Set());
      setAttempt((n) => n + 1);
      if (openId !== null && ids.includes(openId)) setDetailVersion((n) => n + 1);
    } catch (error) {
      if (!handleSessionLost(error)) toast({ title: 'Nothing was approved', description: errorMessage(error), variant: 'destructive' });
    }
  }

  function onAction(action: ShortcutAction) {
    if (action === 'help') return setHelp(true);
    if (action === 'next') return move(1);
    if (action === 'previous') return move(-1);
    const actions = actionsRef.current;
    if (openId === null) return void toast({ title: 'No submission is open', description: `Press ${keyOf('next')} to open the first one in the queue.` });
    if (!actions) return void toast({ title: 'The submission is still loading', description: 'Try again in a moment.' });
    if (action === 'approve') actions.approve();
    else if (action === 'request_changes') actions.requestChanges();
    else if (action === 'reject') actions.reject();
    else actions.note();
  }
  useShortcuts(onAction);

  function back() {
    const id = openId;
    setOpenId(null);
    requestAnimationFrame(() => {
      const row = document.querySelector<HTMLElement>(`[data-row-id="${id}"] button:not([role="checkbox"])`);
      row?.focus();
      row?.scrollIntoView({ block: 'nearest' });
    });
  }

  const items = load.status === 'ready' ? load.data.items : [];
  const index = openId === null ? -1 : items.findIndex((item) => item.id === openId);
  const position = index >= 0 && load.status === 'ready' ? `${(load.data.page - 1) * load.data.pageSize + index + 1} of ${load.data.total}` : null;

  return (
    <section id="review" aria-labelledby="review-heading" className="flex scroll-mt-20 flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h2 id="review-heading" className="text-xl font-semibold tracking-tight">
            Review
          </h2>
          <p className="text-sm text-muted-foreground">
            {mission.review === 'manual'
              ? 'Each entry waits here for a moderator’s decision.'
              : 'This mission approves entries on arrival; you can still change a decision here.'}
          </p>
        </div>
        <Button variant="outline" size="sm" className="hidden sm:inline-flex" onClick={() => setHelp(true)} aria-keyshortcuts="?">
          Keyboard shortcuts <Kbd>?</Kbd>
        </Button>
      </div>

      <Card variant="flat" className={cn('p-4 sm:p-5', openId !== null && 'hidden xl:block')}>
        <QueueFilterBar filters={filters} onApply={applyFilters} />
      </Card>

      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <div
          role="region"
          aria-label="Queue"
          className={cn(
            'flex flex-col gap-3 xl:sticky xl:top-[4.5rem] xl:max-h-[calc(100dvh-5.5rem)] xl:overflow-y-auto xl:pr-1',
            openId !== null && 'hidden xl:flex',
          )}
        >
          <ReviewQueue
            load={load}
            onRetry={() => setAttempt((n) => n + 1)}
            filters={filters}
            page={page}
            onPageChange={changePage}
            openId={openId}
            onOpen={(id) => open(id, { focus: true })}
            selected={selected}
            onSelectedChange={setSelected}
            onBulkApprove={bulkApprove}
            bulkResult={bulkResult}
            missionLive={mission.status === 'live'}
          />
        </div>

        <Card
          variant="flat"
          ref={detailRef}
          tabIndex={-1}
          role="region"
          aria-label="Submission"
          className={cn('min-w-0 scroll-mt-20 p-4 outline-none sm:p-6', openId === null && 'hidden xl:block')}
        >
          {openId === null ? (
            <div className="flex flex-col items-center gap-2 py-16 text-center text-sm text-muted-foreground">
              <p className="text-base font-medium text-foreground">No submission open</p>
              <p>
                Choose one in the queue, or press <kbd className="rounded border border-border bg-muted px-1.5 font-mono">{keyOf('next')}</kbd> to open the
                first.
              </p>
            </div>
          ) : (
            <ReviewDetail
              key={`${openId}-${detailVersion}`}
              submissionId={openId}
              mission={mission}
              templates={templates}
              position={position}
              onPrevious={() => move(-1)}
              onNext={() => move(1)}
              onBack={back}
              onOpen={(id) => open(id, { focus: true })}
              onDecided={(submission, decision) => void decided(submission, decision)}
              onChanged={(submission) =>
                setLoad((current) =>
                  current.status === 'ready'
                    ? {
                        status: 'ready',
                        data: {
                          ...current.data,
                          items: current.data.items.map((item) =>
                            item.id === submission.id
                              ? { ...item, status: submission.status, probesWaiting: submission.probes.filter((probe) => probe.answer === null).length }
                              : item,
                          ),
                        },
                      }
                    : current,
                )
              }
              actionsRef={actionsRef}
            />
          )}
        </Card>
      </div>

      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <ShortcutsHelp open={help} onOpenChange={setHelp} />
    </section>
  );
}
