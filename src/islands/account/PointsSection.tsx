/**
 * `/account`, "Points" (`#points`): the balance (available points), what is pending and why, and
 * the history of the ledger with the reason of each entry, newest first, a page at a time ("Show
 * more"). `GET /api/account/points`, its first page loaded by the page; a skeleton of its frame while it loads.
 */
import { useState, type ReactNode } from 'react';
import type { PointsEntryView, PointsSummary } from '../../shared/points.ts';
import { apiGet } from '../../platform/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { formatDate } from '../../lib/format.ts';
import type { Resource } from '../../lib/resource.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { cn } from '../../lib/utils.ts';
import { Failed } from '../../components/states/Failed.tsx';
import { LoadingNote } from '../../components/states/Loading.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { ChevronRightIcon, StarIcon } from '../../components/icons.tsx';
import { Bone } from '../../components/ui/skeleton.tsx';
import { m } from '../../shared/i18n.ts';
import {
  appendPage,
  hasMore,
  pointSourceLabel,
  pointStateLabel,
  pointStateSpoken,
  POINTS_PAGE_SIZE,
  pointsPath,
  pointsText,
  signedPoints,
  spokenPoints,
} from './points.ts';

/** Where points become rewards (issue 30). */
export const REWARDS_HREF = '/account/rewards';

function Frame({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <Card id="points" aria-labelledby="points-title" aria-busy={busy || undefined} className="scroll-mt-6" role="region">
      <CardHeader className="pb-4">
        <CardTitle id="points-title" className="flex items-center gap-2 text-lg">
          <span className="text-primary">
            <StarIcon className="size-5" />
          </span>
          {m.account_points_title()}
        </CardTitle>
        <CardDescription>{m.account_points_description()}</CardDescription>
        <a href={REWARDS_HREF} className="inline-flex items-center gap-1 self-start text-sm font-medium text-primary underline-offset-4 hover:underline">
          {m.account_points_redeem()}
          <ChevronRightIcon className="size-4" />
        </a>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">{children}</CardContent>
    </Card>
  );
}

function Totals({ balance, pending, held = 0 }: { balance: ReactNode; pending: ReactNode; held?: number }) {
  return (
    <div className="flex flex-col gap-2">
      <dl className="grid grid-cols-2 gap-3">
        <div className="flex flex-col gap-1 rounded-lg bg-muted px-4 py-3">
          <dt className="text-sm text-muted-foreground">{m.account_points_balance()}</dt>
          <dd className="text-2xl font-semibold tabular-nums">{balance}</dd>
        </div>
        <div className="flex flex-col gap-1 rounded-lg border border-dashed border-border px-4 py-3">
          <dt className="text-sm text-muted-foreground">{m.account_points_pending()}</dt>
          <dd className="text-2xl font-semibold text-muted-foreground tabular-nums">{pending}</dd>
        </div>
      </dl>
      {/* The sentence under the pending total: it answers "pending for how long?". */}
      <p className="text-sm text-muted-foreground">{m.account_points_pending_explanation()}</p>
      {/* Held points are out of the balance already: said, so the balance never looks wrong. */}
      {held > 0 && <p className="text-sm text-muted-foreground">{m.account_points_held({ count: held })}</p>}
    </div>
  );
}

/**
 * The part of `/account` that shows the points; the frame stays while its content loads. The page
 * loads the first page (`pointsPath(1)`) and shares it with the balance pill at its top.
 */
export default function PointsSection({ load, reload }: Pick<Resource<PointsSummary>, 'load' | 'reload'>) {
  return (
    <Frame busy={load.status === 'loading'}>
      {load.status === 'loading' ? (
        <PointsSkeleton />
      ) : load.status === 'ready' ? (
        <PointsView first={load.data} />
      ) : (
        <Failed title={m.account_points_load_failed()} message={load.message} onRetry={reload} />
      )}
    </Frame>
  );
}

function PointsView({ first }: { first: PointsSummary }) {
  const [entries, setEntries] = useState<PointsEntryView[]>(first.entries);
  const [pages, setPages] = useState(1);
  const [total, setTotal] = useState(first.total);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const showMore = async () => {
    setLoading(true);
    setFailure(null);
    try {
      const next = await apiGet<PointsSummary>(pointsPath(pages + 1));
      setEntries((shown) => appendPage(shown, next.entries));
      setPages(pages + 1);
      setTotal(next.total);
    } catch (error) {
      if (!handleSessionLost(error)) setFailure(errorMessage(error));
    } finally {
      setLoading(false);
    }
  };

  const more = hasMore(pages, POINTS_PAGE_SIZE, total);
  return (
    <>
      <Totals balance={pointsText(first.balance)} pending={pointsText(first.pending)} held={first.held} />
      <section aria-labelledby="points-history" className="flex flex-col gap-3">
        <h3 id="points-history" className="text-base font-semibold">
          {m.account_points_history()}
        </h3>
        {entries.length === 0 ? (
          <p className="rounded-lg border border-border px-4 py-3 text-sm text-muted-foreground">{m.account_points_none()}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-border rounded-lg border border-border">
            {entries.map((entry) => (
              <PointsRow key={entry.id} entry={entry} />
            ))}
          </ul>
        )}
        {failure && (
          <Alert variant="destructive" title={m.account_points_more_failed()}>
            {failure}
          </Alert>
        )}
        {more && (
          <div>
            <Button variant="outline" loading={loading} onClick={() => void showMore()}>
              {m.account_common_show_more()}
            </Button>
          </div>
        )}
      </section>
    </>
  );
}

function PointsRow({ entry }: { entry: PointsEntryView }) {
  const voided = entry.state === 'voided';
  return (
    <li className="flex items-start justify-between gap-4 px-4 py-3" data-points-entry={entry.id}>
      <div className="flex min-w-0 flex-col gap-1">
        <p className="text-sm font-medium break-words">{entry.reason}</p>
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
          <time dateTime={entry.createdAt}>{formatDate(entry.createdAt)}</time>
          <span aria-hidden="true">·</span>
          <span>{pointSourceLabel(entry.source)}</span>
          {entry.state !== 'available' && <Badge variant="outline">{pointStateLabel(entry.state)}</Badge>}
        </p>
      </div>
      <p
        className={cn(
          'shrink-0 text-end text-sm font-semibold tabular-nums',
          voided
            ? 'text-muted-foreground line-through'
            : entry.state === 'pending'
              ? 'text-muted-foreground'
              : entry.points < 0
                ? 'text-destructive'
                : 'text-success',
        )}
      >
        <span aria-hidden="true">{signedPoints(entry.points)}</span>
        <span className="sr-only">
          {spokenPoints(entry.points)}
          {entry.state !== 'available' ? `, ${pointStateSpoken(entry.state)}` : ''}
        </span>
      </p>
    </li>
  );
}

function PointsSkeleton() {
  return (
    <>
      <LoadingNote label={m.account_points_loading()} />
      <Totals balance={<Bone className="h-8 w-24" />} pending={<Bone className="h-8 w-20" />} />
      <div aria-hidden="true" className="flex flex-col gap-3">
        <Bone className="h-6 w-16" />
        <div className="flex flex-col divide-y divide-border rounded-lg border border-border">
          {[0, 1].map((n) => (
            <div key={n} className="flex items-start justify-between gap-4 px-4 py-3">
              <div className="flex flex-col gap-1">
                <Bone className="h-5 w-56 max-w-full" />
                <Bone className="h-4 w-32" />
              </div>
              <Bone className="h-5 w-10" />
            </div>
          ))}
        </div>
      </div>
    </>
  );
}
