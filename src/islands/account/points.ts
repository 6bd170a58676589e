/**
 * The participant's points in words: signed amounts, states and sources of the points ledger, and
 * the pages of the points history joined without repeats. Pure and zod-free, unit-tested.
 */
import type { PointSource, PointState } from '../../shared/points.ts';

/** How many ledger entries the points history shows per page ("Show more" loads the next). */
export const POINTS_PAGE_SIZE = 10;

/** A page of `GET /api/account/points`. `/account` loads page 1 once, for its balance pill and its points section. */
export const pointsPath = (page: number) => `/api/account/points?page=${page}&pageSize=${POINTS_PAGE_SIZE}`;

/** What the points history says of an entry's state. */
export const POINT_STATE_LABELS: Readonly<Record<PointState, string>> = {
  available: 'Available',
  pending: 'Pending',
  voided: 'Cancelled',
  held: 'Held for a reward',
};

/** What the points history says of where an entry comes from. */
export const POINT_SOURCE_LABELS: Readonly<Record<PointSource, string>> = {
  survey: 'Survey',
  mission: 'Mission',
  adjustment: 'Adjustment',
  bulk: 'Points update',
  external_survey: 'Survey',
  redemption: 'Reward',
};

const MINUS = '\u2212';

/** A signed amount as the history shows it: "+80", "−20", "0" (a real minus sign). */
export function signedPoints(points: number): string {
  const amount = Math.abs(points).toLocaleString('en');
  if (points > 0) return `+${amount}`;
  if (points < 0) return `${MINUS}${amount}`;
  return '0';
}

/** The same amount for assistive technology: "80 points", "minus 20 points". */
export function spokenPoints(points: number): string {
  const amount = Math.abs(points).toLocaleString('en');
  const unit = Math.abs(points) === 1 ? 'point' : 'points';
  return points < 0 ? `minus ${amount} ${unit}` : `${amount} ${unit}`;
}

/**
 * Pages of a list joined, each item once (by id), in the order they came: a row that moved to the
 * next page because a newer one arrived in between is not shown twice.
 */
export function appendPage<T extends { id: number }>(shown: readonly T[], page: readonly T[]): T[] {
  const seen = new Set(shown.map((item) => item.id));
  return [...shown, ...page.filter((item) => !seen.has(item.id))];
}

/** Whether "Show more" has anything left: `pagesShown` pages of `pageSize` are on screen out of `total`. */
export function hasMore(pagesShown: number, pageSize: number, total: number | undefined): boolean {
  return total !== undefined && pagesShown * pageSize < total;
}
