/**
 * A review session: what the mission's review workspace (`ReviewWorkspace.tsx`, page by page) and
 * the review inbox (`ReviewInbox.tsx`, every project, "Load more" by cursor) share — the queue's
 * rows loaded from an address (again on "Try again" and after a bulk approval), the open entry and
 * where the address keeps it, the rows selected for bulk approve, the keys (j/k, a, c, r, n, ?),
 * the toast after a decision and the move to what comes next (`stepAfterDecision`), the
 * screen-reader announcements, and the two panes: the queue beside the entry on wide screens,
 * instead of it on phones (with "Back to the queue").
 *
 * Each screen says what differs: how its rows make a queue page (`pageOf`), how a move reaches rows
 * not loaded (`onTurnPage`: another page, or the next ones by cursor), how its rows follow a
 * decision (`afterDecision`) and what its address keeps (`addressOf`). An entry that changed while
 * it was looked at (409 `changed`) is handled by `ReviewDetail`; the session updates its row.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ReviewDecision, ReviewQueueItem, ReviewSubmission } from '../../../shared/review.ts';
import { apiGet, apiSend } from '../../../platform/api.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { errorMessage } from '../../../lib/form-errors.ts';
import type { Load } from '../../../lib/resource.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { fullNameOf } from '../../../lib/user.ts';
import { cn } from '../../../lib/utils.ts';
import { toast } from '../../../stores/toasts.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { bulkResultText, stepAfterDecision, stepInQueue, type QueuePage, type QueueStep } from './logic.ts';
import type { DetailActions, ReviewDetailProps } from './ReviewDetail.tsx';
import type { ReviewQueueProps } from './ReviewQueue.tsx';
import { Kbd, ShortcutsHelp, useShortcuts } from './ShortcutsHelp.tsx';
import { keyOf, type ShortcutAction } from './shortcuts.ts';

type Step = QueueStep | { kind: 'stay' };
const STAY: Step = { kind: 'stay' };

const WIDE = '(min-width: 80rem)';
const isWide = () => typeof matchMedia === 'function' && matchMedia(WIDE).matches;

/** "3 of 10": a row's place in the whole queue. */
const positionText = (queue: QueuePage, index: number): string =>
  m.review_session_position({ position: formatCount((queue.page - 1) * queue.pageSize + index + 1), total: formatCount(queue.total) });

export interface ReviewSessionOptions<T extends ReviewQueueItem, D extends { items: T[] }> {
  /** The entry open as the screen opens (from the address). */
  initialOpenId: number | null;
  /** The rows' address: asked when it changes, on "Try again" and after a bulk approval. */
  url: string;
  /** The loaded rows as the queue page moves are worked out on. */
  pageOf: (data: D) => QueuePage;
  /** What the announcement says of a row before its place ("Ana Silva: 3 of 10"); the participant by default. */
  rowLabel?: (item: T) => string;
  /** Each time the address's rows arrive: a row to open (a move to another page asked for its first or last), or null. */
  openOnLoad?: (data: D) => number | null;
  /** A move past the loaded rows: the row to open, now or once loaded; null when none (or when `openOnLoad` will). */
  onTurnPage: (step: Extract<QueueStep, { kind: 'page' }>, data: D | null) => number | null | Promise<number | null>;
  /** The points the decided entry's mission gives, for the approval's toast (null: not known). */
  pointsOf: (submission: ReviewSubmission, data: D | null) => number | null;
  /** After a decision: the rows as they are now (null: not known, nothing moves), from the API or worked out. */
  afterDecision: (submission: ReviewSubmission, context: { data: D | null; retry: () => void }) => D | null | Promise<D | null>;
  /** After a bulk approval went through. */
  onBulkApproved?: () => void;
  /** `location.search` for the open entry, keeping the parameters in `other` that are not the screen's. */
  addressOf: (openId: number | null, other: string) => string;
}

export function useReviewSession<T extends ReviewQueueItem, D extends { items: T[] }>(options: ReviewSessionOptions<T, D>) {
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const [openId, setOpenId] = useState<number | null>(options.initialOpenId);
  const [load, setLoad] = useState<Load<D>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const [bulkResult, setBulkResult] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  /** Bumped to load the open submission again (after a bulk approval included it). */
  const [detailVersion, setDetailVersion] = useState(0);
  const actionsRef = useRef<DetailActions | null>(null);
  const loadRef = useRef(load);
  loadRef.current = load;
  const detailRef = useRef<HTMLDivElement>(null);
  const { url } = options;

  const setData = useCallback((data: D) => {
    loadRef.current = { status: 'ready', data };
    setLoad(loadRef.current);
  }, []);
  /** The rows loaded now (null while loading or failed). */
  const loaded = useCallback((): D | null => (loadRef.current.status === 'ready' ? loadRef.current.data : null), []);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const startOver = useCallback(() => {
    setSelected(new Set());
    setBulkResult(null);
  }, []);

  const open = useCallback((id: number | null, how: { focus?: boolean } = {}) => {
    setOpenId(id);
    if (id === null) return;
    const data = loadRef.current.status === 'ready' ? loadRef.current.data : null;
    const index = data ? data.items.findIndex((item) => item.id === id) : -1;
    const item = data?.items[index];
    const { pageOf, rowLabel } = optionsRef.current;
    setAnnouncement(
      item && data
        ? `${rowLabel ? rowLabel(item) : fullNameOf(item.user) || item.user.email}: ${positionText(pageOf(data), index)}`
        : m.review_session_opened(),
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

  // The rows of the address.
  useEffect(() => {
    const controller = new AbortController();
    setLoad((current) => (current.status === 'ready' ? current : { status: 'loading' }));
    apiGet<D>(url, { signal: controller.signal })
      .then((data) => {
        setData(data);
        const id = optionsRef.current.openOnLoad?.(data) ?? null;
        if (id !== null) open(id);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted || handleSessionLost(error)) return;
        setLoad({ status: 'error', message: errorMessage(error) });
      });
    return () => controller.abort();
  }, [url, attempt, setData, open]);

  // The address keeps the state (a reload or a shared link opens the same view).
  const address = options.addressOf(openId, '');
  useEffect(() => {
    const search = optionsRef.current.addressOf(openId, location.search);
    if (search !== location.search) history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
    // `address` is the screen's part of it: written again when that changes.
  }, [address, openId]);

  /** Follows a move through the queue; says so when there is nowhere to go. */
  const follow = useCallback(
    (step: Step): string | null => {
      switch (step.kind) {
        case 'select':
          open(step.id);
          return null;
        case 'page': {
          const target = optionsRef.current.onTurnPage(step, loadRef.current.status === 'ready' ? loadRef.current.data : null);
          if (target instanceof Promise) {
            void target.then((id) => {
              if (id !== null) open(id);
            });
          } else if (target !== null) open(target);
          return null;
        }
        case 'none': {
          const text = step.edge === 'end' ? m.review_session_last() : m.review_session_first();
          setAnnouncement(text);
          return text;
        }
        case 'stay':
          return null;
      }
    },
    [open],
  );

  function move(delta: 1 | -1) {
    const current = loadRef.current;
    if (current.status !== 'ready') return;
    const text = follow(stepInQueue(optionsRef.current.pageOf(current.data), openId, delta));
    if (text) toast({ title: text });
  }

  /** After a decision: bring the rows up to date, confirm it, open what comes next. */
  const decided = useCallback(
    (submission: ReviewSubmission, decision: ReviewDecision) => {
      const { pageOf, pointsOf, afterDecision } = optionsRef.current;
      const who = fullNameOf(submission.user) || submission.user.email;
      const before = loadRef.current.status === 'ready' ? loadRef.current.data : null;
      const points = pointsOf(submission, before);
      const confirm = (after: D | null) => {
        let step: Step = STAY;
        if (after !== null) {
          setData(after);
          if (before !== null) step = stepAfterDecision(pageOf(before), pageOf(after), submission.id);
        }
        const last = step.kind === 'none' ? ` ${m.review_session_last_one()}` : 'wrapped' in step && step.wrapped ? ` ${m.review_session_wrapped()}` : '';
        const title =
          decision === 'approve' ? m.review_session_approved() : decision === 'reject' ? m.review_session_rejected() : m.review_session_changes_asked();
        const description =
          decision === 'approve'
            ? points === null
              ? m.review_session_approved_description({ name: who })
              : m.review_session_approved_points({ name: who, count: points })
            : decision === 'reject'
              ? m.review_session_rejected_description({ name: who })
              : m.review_session_changes_description({ name: who });
        toast({ title, description: `${description}${last}` });
        follow(step);
      };
      const after = afterDecision(submission, { data: before, retry });
      if (after instanceof Promise) void after.then(confirm);
      else confirm(after);
    },
    [setData, retry, follow],
  );

  /** The entry changed in a way its row shows (its status, the probes waiting). */
  const changed = useCallback(
    (submission: ReviewSubmission) => {
      const current = loadRef.current;
      if (current.status !== 'ready') return;
      setData({
        ...current.data,
        items: current.data.items.map((item) =>
          item.id === submission.id
            ? { ...item, status: submission.status, probesWaiting: submission.probes.filter((probe) => probe.answer === null).length }
            : item,
        ),
      });
    },
    [setData],
  );

  async function bulkApprove() {
    const ids = [...selected];
    try {
      const result = await apiSend<{ approved: number; skipped: number }>('POST', '/api/admin/submissions/review', { ids, decision: 'approve' });
      const text = bulkResultText(result);
      setBulkResult(text);
      toast({ title: m.review_bulk_title(), description: text });
      setSelected(new Set());
      retry();
      optionsRef.current.onBulkApproved?.();
      if (openId !== null && ids.includes(openId)) setDetailVersion((n) => n + 1);
    } catch (error) {
      if (!handleSessionLost(error)) toast({ title: m.review_bulk_failed(), description: errorMessage(error), variant: 'destructive' });
    }
  }

  function onAction(action: ShortcutAction) {
    if (action === 'help') return setHelp(true);
    if (action === 'next') return move(1);
    if (action === 'previous') return move(-1);
    const actions = actionsRef.current;
    if (openId === null) return void toast({ title: m.review_session_none_open(), description: m.review_session_press_next({ key: keyOf('next') }) });
    if (!actions) return void toast({ title: m.review_session_still_loading(), description: m.review_session_try_again_soon() });
    if (action === 'approve') actions.approve();
    else if (action === 'request_changes') actions.requestChanges();
    else if (action === 'reject') actions.reject();
    else actions.note();
  }
  useShortcuts(onAction);

  /** Back to the queue (phones): the row of the entry gets the focus. */
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
  const openItem = index >= 0 ? items[index] : undefined;
  const position = openItem && load.status === 'ready' ? positionText(options.pageOf(load.data), index) : null;

  /** The queue's props that are the session's (the screen adds its rows, filters and pages). */
  const queueProps = {
    onRetry: retry,
    openId,
    onOpen: (id: number) => open(id, { focus: true }),
    selected,
    onSelectedChange: setSelected,
    onBulkApprove: bulkApprove,
    bulkResult,
  } satisfies Partial<ReviewQueueProps<T>>;

  /** The open entry's props that are the session's (the screen adds the entry, its mission and templates). */
  const detailProps = {
    position,
    onPrevious: () => move(-1),
    onNext: () => move(1),
    onBack: back,
    onOpen: (id: number) => open(id, { focus: true }),
    onDecided: decided,
    onChanged: changed,
    actionsRef,
  } satisfies Partial<ReviewDetailProps>;

  return {
    load,
    /** The rows loaded now, and replacing them (the inbox's "Load more"). */
    loaded,
    setData,
    openId,
    openItem,
    detailVersion,
    /** Clears the selection (another page, other filters). */
    setSelected,
    /** Other filters: no selection, no bulk result. */
    startOver,
    help,
    setHelp,
    announcement,
    detailRef,
    queueProps,
    detailProps,
  };
}

export type ReviewSession = ReturnType<typeof useReviewSession>;

/** "Keyboard shortcuts ?": opens the list of keys. */
export function ShortcutsButton({ session }: { session: Pick<ReviewSession, 'setHelp'> }) {
  return (
    <Button variant="outline" size="sm" className="hidden sm:pointer-fine:inline-flex" onClick={() => session.setHelp(true)} aria-keyshortcuts="?">
      {m.review_shortcuts_title()} <Kbd>?</Kbd>
    </Button>
  );
}

/**
 * The queue and the open entry (beside each other on wide screens, one at a time on phones), the
 * announcements and the shortcuts' dialog. `className` is the screen's grid.
 */
export function ReviewPanes({
  session,
  className,
  queue,
  detail,
}: {
  session: Pick<ReviewSession, 'openId' | 'detailRef' | 'announcement' | 'help' | 'setHelp'>;
  className: string;
  queue: ReactNode;
  detail: (openId: number) => ReactNode;
}) {
  const { openId } = session;
  return (
    <>
      <div className={className}>
        <div
          role="region"
          aria-label={m.review_panes_queue()}
          className={cn(
            'flex flex-col gap-3 xl:sticky xl:top-[4.5rem] xl:max-h-[calc(100dvh-5.5rem)] xl:overflow-y-auto xl:pe-1',
            openId !== null && 'hidden xl:flex',
          )}
        >
          {queue}
        </div>

        <Card
          variant="flat"
          ref={session.detailRef}
          tabIndex={-1}
          role="region"
          aria-label={m.review_panes_submission()}
          className={cn('min-w-0 scroll-mt-20 p-4 outline-none sm:p-6', openId === null && 'hidden xl:block')}
        >
          {openId === null ? (
            <div className="flex flex-col items-center gap-2 py-16 text-center text-sm text-muted-foreground">
              <p className="text-base font-medium text-foreground">{m.review_panes_none_open()}</p>
              <p>
                {withNodes((marks) => m.review_panes_choose({ keys: marks.keys }), {
                  // The key only where there is a keyboard (not on touch screens).
                  keys: (
                    <span className="hidden pointer-fine:inline">
                      {withNodes((marks) => m.review_panes_or_press({ key: marks.key }), {
                        key: <kbd className="rounded border border-border bg-muted px-1.5 font-mono">{keyOf('next')}</kbd>,
                      })}
                    </span>
                  ),
                })}
              </p>
            </div>
          ) : (
            detail(openId)
          )}
        </Card>
      </div>

      <p role="status" aria-live="polite" className="sr-only">
        {session.announcement}
      </p>
      <ShortcutsHelp open={session.help} onOpenChange={session.setHelp} />
    </>
  );
}
