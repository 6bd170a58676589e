/**
 * The participant's points as a pill: the balance (available points) and what is pending, linking
 * to the points history (`/account#points`; on `/account` itself, `#points`). Beside the home
 * heading and at the top of `/account`. Its own call (`GET /api/account/points`, one entry), or on
 * `/account` the points section's (`PointsSummaryPill`); a bone of the same size while it loads.
 */
import type { PointsSummary } from '../shared/points.ts';
import { m, formatCount } from '../shared/i18n.ts';
import { useResource, type Load } from '../lib/resource.ts';
import { StarIcon } from './icons.tsx';
import { Bone } from './ui/skeleton.tsx';

/** Where the balance links to: the history on the account page. */
export const POINTS_HISTORY_HREF = '/account#points';

const PILL =
  'inline-flex h-10 max-w-full items-center gap-2 rounded-full border border-border bg-card px-3.5 text-sm whitespace-nowrap text-foreground no-underline shadow-xs transition-colors hover:border-primary/60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';

export default function PointsPill({ href = POINTS_HISTORY_HREF }: { href?: string }) {
  const { load } = useResource<PointsSummary>('/api/account/points?page=1&pageSize=1');
  return <PointsSummaryPill load={load} href={href} />;
}

/** The pill from a load of the points made elsewhere (the account page's, shared with its points section). */
export function PointsSummaryPill({ load, href = POINTS_HISTORY_HREF }: { load: Load<PointsSummary>; href?: string }) {
  if (load.status === 'loading') return <Bone className="h-10 w-48 rounded-full" />;
  if (load.status !== 'ready') {
    // The count could not be read: still a way to the history.
    return (
      <a href={href} className={PILL}>
        <StarIcon className="size-4 text-primary" />
        {m.shell_points_pill_link()}
      </a>
    );
  }
  const { balance, pending, held } = load.data;
  return (
    <a href={href} className={PILL} data-balance={balance}>
      <StarIcon className="size-4 shrink-0 text-primary" />
      <span>
        <span className="sr-only">{m.shell_points_pill_balance()} </span>
        <strong className="font-semibold tabular-nums">{formatCount(balance)}</strong> {m.shell_points_pill_points({ count: balance })}
      </span>
      {pending > 0 && (
        <span className="text-muted-foreground">
          <span aria-hidden="true">· </span>
          <span className="tabular-nums">{formatCount(pending)}</span> {m.shell_points_pill_pending({ count: pending })}
        </span>
      )}
      {held > 0 && (
        <span className="text-muted-foreground">
          <span aria-hidden="true">· </span>
          <span className="tabular-nums">{formatCount(held)}</span> {m.shell_points_pill_held({ count: held })}
        </span>
      )}
    </a>
  );
}
