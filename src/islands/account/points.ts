/**
 * The participant's points in words: signed amounts, states and sources of the points ledger, and
 * the pages of the points history joined without repeats. Pure and zod-free, unit-tested.
 */
import { formatCount, m } from '../../shared/i18n.ts';
import type { PointSource, PointState } from '../../shared/points.ts';

/** How many ledger entries the points history shows per page ("Show more" loads the next). */
export const POINTS_PAGE_SIZE = 10;

/** A page of `GET /api/account/points`. `/account` loads page 1 once, for its balance pill and its points section. */
export const pointsPath = (page: number) => `/api/account/points?page=${page}&pageSize=${POINTS_PAGE_SIZE}`;

/** What the points history says of an entry's state. */
const POINT_STATE_LABELS: Readonly<Record<PointState, () => string>> = {
  available: m.account_points_state_available,
  pending: m.account_points_state_pending,
  voided: m.account_points_state_voided,
  held: m.account_points_state_held,
};

/** The same state as a screen reader hears it after the amount ("80 points, pending"). */
const POINT_STATE_SPOKEN: Readonly<Record<PointState, () => string>> = {
  available: m.account_points_state_available_spoken,
  pending: m.account_points_state_pending_spoken,
  voided: m.account_points_state_voided_spoken,
  held: m.account_points_state_held_spoken,
};

/** What the points history says of where an entry comes from. */
const POINT_SOURCE_LABELS: Readonly<Record<PointSource, () => string>> = {
  survey: m.account_points_source_survey,
  mission: m.account_points_source_mission,
  adjustment: m.account_points_source_adjustment,
  bulk: m.account_points_source_bulk,
  external_survey: m.account_points_source_survey,
  redemption: m.account_points_source_redemption,
};

/** An entry's state in words ("Pending"); an unknown state as it came. */
export function pointStateLabel(state: PointState): string {
  return POINT_STATE_LABELS[state]?.() ?? state;
}

/** An entry's state as said after its amount ("pending"). */
export function pointStateSpoken(state: PointState): string {
  return POINT_STATE_SPOKEN[state]?.() ?? state;
}

/** Where an entry comes from, in words ("Survey"); an unknown source as it came. */
export function pointSourceLabel(source: PointSource): string {
  return POINT_SOURCE_LABELS[source]?.() ?? source;
}

const MINUS = '\u2212';

/** "1,250 points", "1 point" (the language's digits and plural). */
export function pointsText(points: number): string {
  return m.account_points_count({ count: points });
}

/** A signed amount as the history shows it: "+80", "−20", "0" (a real minus sign). */
export function signedPoints(points: number): string {
  const amount = formatCount(Math.abs(points));
  if (points > 0) return `+${amount}`;
  if (points < 0) return `${MINUS}${amount}`;
  return formatCount(0);
}

/** The same amount for assistive technology: "80 points", "minus 20 points". */
export function spokenPoints(points: number): string {
  const count = Math.abs(points);
  return points < 0 ? m.account_points_spoken_minus({ count }) : m.account_points_count({ count });
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
