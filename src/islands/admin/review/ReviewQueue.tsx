/**
 * The review queue: the filter bar (status — waiting for review by default —, participant, dates,
 * probes waiting for an answer) and a page of submissions, each row with its checkbox for bulk
 * approve, the participant, the status, "Resubmission", when it was submitted and the probes
 * waiting; the open one is marked. "Select all on this page" and "Approve N selected" above the
 * rows, the pages below.
 */
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { ENTRY_STATUSES, type EntryStatus } from '../../../shared/mission-entries.ts';
import type { ListPage } from '../../../shared/list.ts';
import type { ReviewQueueItem } from '../../../shared/review.ts';
import { m } from '../../../shared/i18n.ts';
import { isLanguage } from '../../../shared/languages.ts';
import type { Load } from '../../../lib/resource.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { fullNameOf } from '../../../lib/user.ts';
import { cn } from '../../../lib/utils.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox, CheckboxField } from '../../../components/ui/checkbox.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select.tsx';
import { Bone } from '../../../components/ui/skeleton.tsx';
import { BulkApproveBar } from '../admin-kit.tsx';
import { AnswerLanguageBadge, languageFilterOptions } from '../content-language.tsx';
import { EntryStatusBadge, formatDay, Moment } from '../projects/kit.tsx';
import { ENTRY_STATUS_LABELS } from '../projects/logic.ts';
import { DEFAULT_FILTERS, isFiltered, selectAllState, toggleAll, type QueueFilters } from './logic.ts';

const isEntryStatus = (value: string): value is EntryStatus => (ENTRY_STATUSES as readonly string[]).includes(value);
/** The status filter's words: `submitted` is what waits for review. */
const statusOption = (status: EntryStatus): string => (status === 'submitted' ? m.review_queue_status_submitted() : ENTRY_STATUS_LABELS[status]);

/** The filter bar: applied on "Filter"; "Clear" goes back to what waits for review. */
export function QueueFilterBar({ filters, onApply }: { filters: QueueFilters; onApply: (filters: QueueFilters) => void }) {
  const id = useId();
  const [draft, setDraft] = useState<QueueFilters>(filters);
  useEffect(() => setDraft(filters), [filters]);

  function apply(event: FormEvent) {
    event.preventDefault();
    onApply({ ...draft, q: draft.q.trim() });
  }

  return (
    <form role="search" aria-label={m.review_queue_filter_label()} onSubmit={apply} className="flex flex-col gap-3">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[16.5rem_minmax(0,1fr)_10rem_10rem_10rem]">
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-status`}>{m.review_queue_status()}</Label>
          <Select value={draft.status} onValueChange={(value) => (value === 'all' || isEntryStatus(value)) && setDraft({ ...draft, status: value })}>
            <SelectTrigger id={`${id}-status`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">{m.review_queue_all_but_drafts()}</SelectItem>
              {ENTRY_STATUSES.map((status) => (
                <SelectItem key={status} value={status}>
                  {statusOption(status)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-q`}>{m.review_queue_participant()}</Label>
          <Input
            id={`${id}-q`}
            type="search"
            placeholder={m.review_queue_name_or_email()}
            value={draft.q}
            onChange={(event) => setDraft({ ...draft, q: event.target.value })}
          />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-from`}>{m.review_queue_from()}</Label>
          <Input
            id={`${id}-from`}
            type="date"
            value={draft.from}
            max={draft.to || undefined}
            onChange={(event) => setDraft({ ...draft, from: event.target.value })}
          />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-to`}>{m.review_queue_to()}</Label>
          <Input
            id={`${id}-to`}
            type="date"
            value={draft.to}
            min={draft.from || undefined}
            onChange={(event) => setDraft({ ...draft, to: event.target.value })}
          />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-language`}>{m.review_queue_language()}</Label>
          <Select
            value={draft.language ?? 'all'}
            onValueChange={(value) => {
              const { language: _language, ...rest } = draft;
              setDraft(isLanguage(value) ? { ...rest, language: value } : rest);
            }}
          >
            <SelectTrigger id={`${id}-language`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {languageFilterOptions(m.review_queue_language_all()).map((option) => (
                <SelectItem key={option.value} value={option.value} lang={option.value === 'all' ? undefined : option.value}>
                  {option.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <CheckboxField
          id={`${id}-probes`}
          label={m.review_queue_probes_filter()}
          checked={draft.probesWaiting}
          onCheckedChange={(checked) => setDraft({ ...draft, probesWaiting: checked === true })}
        />
        <div className="flex gap-2">
          <Button type="submit" variant="secondary">
            {m.review_queue_filter()}
          </Button>
          {(isFiltered(filters) || isFiltered(draft)) && (
            <Button variant="ghost" onClick={() => onApply({ ...DEFAULT_FILTERS })}>
              {m.review_queue_clear()}
            </Button>
          )}
        </div>
      </div>
    </form>
  );
}

export interface ReviewQueueProps<T extends ReviewQueueItem = ReviewQueueItem> {
  /** `totalEstimated`: past 1,000 matches `total` is the server's estimate (docs/api.md), shown as "about". */
  load: Load<ListPage<T> & { totalEstimated?: boolean }>;
  onRetry: () => void;
  filters: QueueFilters;
  /** The page asked for (the pager follows it; the rows shown are the answer's page). */
  page: number;
  onPageChange: (page: number) => void;
  openId: number | null;
  onOpen: (id: number) => void;
  selected: ReadonlySet<number>;
  onSelectedChange: (selected: Set<number>) => void;
  onBulkApprove: () => Promise<void>;
  /** The last bulk approval's outcome in words. */
  bulkResult: string | null;
  missionLive: boolean;
  /** More about a row, under its dates (the review inbox: the project and mission). */
  rowDetail?: (item: T) => ReactNode;
  /** In place of the pager (the review inbox: "Load more"). */
  footer?: ReactNode;
}

/** The rows of the queue and what acts on them. */
export function ReviewQueue<T extends ReviewQueueItem = ReviewQueueItem>({
  load,
  onRetry,
  filters,
  page,
  onPageChange,
  openId,
  onOpen,
  selected,
  onSelectedChange,
  onBulkApprove,
  bulkResult,
  missionLive,
  rowDetail,
  footer,
}: ReviewQueueProps<T>) {
  const id = useId();
  if (load.status === 'loading') {
    return (
      <Loading label={m.review_queue_loading()} className="flex flex-col gap-2">
        {[0, 1, 2, 3, 4].map((row) => (
          <Bone key={row} className="h-16 w-full" />
        ))}
      </Loading>
    );
  }
  if (load.status !== 'ready') return <Failed title={m.review_queue_failed()} message={load.message} onRetry={onRetry} />;

  const { items, total, pageSize } = load.data;
  const ids = items.map((item) => item.id);
  const all = selectAllState(ids, selected);
  const count = ids.filter((rowId) => selected.has(rowId)).length;
  const from = total === 0 ? 0 : (load.data.page - 1) * pageSize + 1;
  const to = Math.min(total, (load.data.page - 1) * pageSize + items.length);
  const waitingQueue = !isFiltered(filters);

  return (
    <div className="flex flex-col gap-3">
      {bulkResult && (
        <Alert variant="success" title={m.review_bulk_title()}>
          {bulkResult}
        </Alert>
      )}
      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
          {waitingQueue ? (missionLive ? m.review_queue_empty_live() : m.review_queue_empty_not_live()) : m.review_queue_empty_filtered()}
        </p>
      ) : (
        <>
          <BulkApproveBar
            id={`${id}-all`}
            allLabel={m.review_queue_select_all()}
            checked={all}
            onToggleAll={() => onSelectedChange(toggleAll(ids, selected))}
            count={count}
            question={m.review_queue_approve_question({ count })}
            onApprove={onBulkApprove}
          />
          <ul
            aria-label={m.review_queue_rows_label({ from: String(from), to: String(to), total: String(total) })}
            className="flex flex-col divide-y divide-border overflow-hidden rounded-lg border border-border bg-card"
          >
            {items.map((item) => {
              const who = fullNameOf(item.user) || item.user.email;
              const open = item.id === openId;
              return (
                <li key={item.id} data-row-id={item.id} className={cn('flex items-start gap-3 px-3 py-2.5', open && 'bg-accent')}>
                  <Checkbox
                    className="mt-1"
                    aria-label={m.review_queue_select_entry({ name: who })}
                    checked={selected.has(item.id)}
                    onCheckedChange={(checked) => {
                      const next = new Set(selected);
                      if (checked === true) next.add(item.id);
                      else next.delete(item.id);
                      onSelectedChange(next);
                    }}
                  />
                  <button
                    type="button"
                    aria-current={open ? 'true' : undefined}
                    onClick={() => onOpen(item.id)}
                    className="flex min-w-0 flex-1 flex-col gap-1 rounded-md text-start focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                  >
                    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                      <span className="sr-only">{m.review_queue_open_entry()} </span>
                      <span className="font-medium break-words">{who}</span>
                      <EntryStatusBadge status={item.status} />
                      {item.resubmission && <Badge variant="outline">{m.review_resubmission()}</Badge>}
                      <AnswerLanguageBadge language={item.language} label={m.review_answered_in()} />
                    </span>
                    <span className="truncate text-xs text-muted-foreground">{item.user.email}</span>
                    <span className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
                      <span>
                        {withNodes((marks) => m.review_queue_submitted({ time: marks.time }), {
                          time: <Moment value={item.submittedAt} empty={m.review_queue_not_yet()} />,
                        })}
                      </span>
                      {item.localDate && <span>{m.review_queue_day({ day: formatDay(item.localDate) })}</span>}
                      {item.probesWaiting > 0 && (
                        <span className="font-medium text-foreground">{m.review_queue_probes_waiting({ count: item.probesWaiting })}</span>
                      )}
                    </span>
                    {rowDetail?.(item)}
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      )}
      <div className="flex flex-col items-center gap-2">
        {/* An empty queue already says so above: no count line of its own. */}
        {total > 0 && (
          <p className="text-sm text-muted-foreground tabular-nums">
            {(load.data.totalEstimated ? m.review_queue_showing_about : m.review_queue_showing)({ from: String(from), to: String(to), total: String(total) })}
          </p>
        )}
        {footer ??
          (total > pageSize && (
            <Pagination page={page} total={total} perPage={pageSize} siblings={1} onPageChange={onPageChange} label={m.review_queue_pages()} />
          ))}
      </div>
    </div>
  );
}
