/**
 * `/account/rewards` in words (issue 30 §3): money, the values a reward offers, what a value costs
 * and why it is out of reach, the steps of a request's timeline, and the retry key of a
 * confirmation. Pure and zod-free, unit-tested; the rules and the refusals' words are
 * `src/shared/rewards.ts`'s.
 */
import {
  morePointsNeeded,
  offersValue,
  pointsFor,
  REDEMPTION_REFUSALS,
  RELEASED_REDEMPTION_STATUSES,
  toMinorUnits,
  fromMinorUnits,
  type Redemption,
  type RedemptionStatus,
  type RewardKind,
  type RewardValues,
  type RewardView,
} from '../../shared/rewards.ts';
import { currentLanguage, m } from '../../shared/i18n.ts';
import { pointsText } from './points.ts';

export { pointsText };

/** How many requests "Your requests" shows per page ("Show more" loads the next). */
export const REDEMPTIONS_PAGE_SIZE = 10;

/** A page of `GET /api/redemptions` (the list contract), newest first. */
export const redemptionsPath = (page: number) => `/api/redemptions?page=${page}&pageSize=${REDEMPTIONS_PAGE_SIZE}`;

export const REWARDS_PATH = '/api/rewards';

/** What a reward's card calls its kind. */
const REWARD_KIND_LABELS: Readonly<Record<RewardKind, () => string>> = {
  gift_card: m.account_rewards_kind_gift_card,
  donation: m.account_rewards_kind_donation,
  custom: m.account_rewards_kind_custom,
};

export function rewardKindLabel(kind: RewardKind): string {
  return REWARD_KIND_LABELS[kind]();
}

/** A request's status badge. */
const REDEMPTION_STATUS_LABELS: Readonly<Record<RedemptionStatus, () => string>> = {
  requested: m.account_requests_status_requested,
  approved: m.account_requests_status_approved,
  ordering: m.account_requests_status_ordering,
  delivered: m.account_requests_status_delivered,
  rejected: m.account_requests_status_rejected,
  failed: m.account_requests_status_failed,
  cancelled: m.account_requests_status_cancelled,
};

export function redemptionStatusLabel(status: RedemptionStatus): string {
  return REDEMPTION_STATUS_LABELS[status]();
}

/** "12.50 EUR" as people read money: the currency's symbol where the language has one ("€12.50"). */
export function formatMoney(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat(currentLanguage(), { style: 'currency', currency, minimumFractionDigits: Number.isInteger(value) ? 0 : 2 }).format(value);
  } catch {
    return `${value.toFixed(Number.isInteger(value) ? 0 : 2)} ${currency}`;
  }
}

/** The values a reward offers, smallest first: its denominations, or every step of its range (at most `max` of them). */
export function valuesOf(values: RewardValues, max = 200): number[] {
  if (Array.isArray(values)) return [...values].sort((a, b) => a - b);
  const [min, top, step] = [toMinorUnits(values.min), toMinorUnits(values.max), toMinorUnits(values.step)];
  if (step <= 0 || top < min) return [fromMinorUnits(min)];
  const list: number[] = [];
  for (let minor = min; minor <= top && list.length < max; minor += step) list.push(fromMinorUnits(minor));
  return list;
}

/** "From €5 to €50, in steps of €5": the hint of a range's number field. */
export function rangeHint(range: { min: number; max: number; step: number }, currency: string): string {
  return m.account_rewards_range_hint({
    min: formatMoney(range.min, currency),
    max: formatMoney(range.max, currency),
    step: formatMoney(range.step, currency),
  });
}

/**
 * The value a card starts with: the largest the balance pays for (at or above the smallest
 * reward); else the smallest at or above it, so the card says how many points are missing.
 */
export function startingValue(reward: RewardView, available: number, minimumPoints: number): number {
  const rate = reward.pointsPerUnit;
  const offered = reward.denominations;
  if (Array.isArray(offered)) {
    const values = valuesOf(offered);
    if (rate === null) return values[0] ?? 0;
    const cost = (value: number) => pointsFor(value, rate);
    return (
      values.filter((value) => cost(value) >= minimumPoints && cost(value) <= available).at(-1) ??
      values.find((value) => cost(value) >= minimumPoints) ??
      values.at(-1) ??
      0
    );
  }
  const [min, max, step] = [toMinorUnits(offered.min), toMinorUnits(offered.max), toMinorUnits(offered.step)];
  if (rate === null || step <= 0 || max < min) return offered.min;
  const steps = Math.floor((max - min) / step);
  const valueAt = (k: number) => fromMinorUnits(min + k * step);
  const cost = (k: number) => pointsFor(valueAt(k), rate);
  // The first step at or above the smallest reward (worked out, then nudged past rounding).
  let first = Math.min(steps, Math.max(0, Math.ceil(((minimumPoints * 100) / rate - min) / step)));
  while (first > 0 && cost(first - 1) >= minimumPoints) first -= 1;
  while (first < steps && cost(first) < minimumPoints) first += 1;
  // The last step the balance pays for.
  let last = Math.min(steps, Math.floor(((available * 100) / rate - min) / step));
  while (last >= 0 && cost(last) > available) last -= 1;
  return valueAt(last >= first ? last : first);
}

/** What stands between the participant and a value of a reward: why it cannot be chosen, or null when it can. */
export type Reach = { ok: true; points: number } | { ok: false; points: number | null; reason: string; kind: 'unavailable' | 'invalid' | 'minimum' | 'points' };

/**
 * Whether `value` of `reward` can be requested with `available` points: the reward's own reason
 * first (never hidden), then a value it does not offer, the smallest redemption, then the points
 * ("You need 350 more points").
 */
export function reachOf(reward: RewardView, value: number | null, available: number, minimumPoints: number): Reach {
  if (!reward.available || reward.pointsPerUnit === null)
    return { ok: false, points: null, reason: reward.unavailableReason ?? m.account_rewards_not_available(), kind: 'unavailable' };
  if (value === null || !Number.isFinite(value) || !offersValue(reward.denominations, value))
    return { ok: false, points: null, reason: m.account_rewards_choose_offered_value(), kind: 'invalid' };
  const points = pointsFor(value, reward.pointsPerUnit);
  if (points < minimumPoints) return { ok: false, points, reason: m.account_rewards_below_minimum({ points: pointsText(minimumPoints) }), kind: 'minimum' };
  if (points > available) return { ok: false, points, reason: morePointsNeeded(points - available), kind: 'points' };
  return { ok: true, points };
}

/** The words of a refusal of `POST /api/redemptions`: the shared ones for its code, else the API's message. */
export function refusalMessage(code: string, message: string, details: Readonly<Record<string, unknown>> = {}): string {
  const known = Object.hasOwn(REDEMPTION_REFUSALS, code) ? REDEMPTION_REFUSALS[code as keyof typeof REDEMPTION_REFUSALS] : message;
  if (code === 'insufficient_points' && typeof details.missing === 'number' && details.missing > 0) return `${known}. ${morePointsNeeded(details.missing)}.`;
  return known.endsWith('.') ? known : `${known}.`;
}

/** A new retry key for one confirmation: the same key goes with every retry of it, never with another. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Outside a secure context (a phone on a LAN address) `randomUUID` is missing: 16 random bytes in hex.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** One step of a request's timeline as the participant reads it. */
export interface TimelineStep {
  key: string;
  label: string;
  /** When it happened; null for a step still ahead. */
  at: string | null;
  /** `done`, `now` (waiting on it), `ahead`, or `stopped` (rejected, failed, cancelled). */
  state: 'done' | 'now' | 'ahead' | 'stopped';
  /** A line under the step: the wait, the reason, "your points are back". */
  note?: string;
}

const timeOf = (redemption: Redemption, status: RedemptionStatus): string | null =>
  redemption.timeline.filter((step) => step.status === status).at(-1)?.at ?? null;

/**
 * A request's timeline: Requested (date) → Approved (date; or "Waits for a check, usually within
 * 2 working days") → Sent (date) | Rejected | Failed | Cancelled (with the reason and the points
 * returned). A step to come is listed as ahead.
 */
export function timelineOf(redemption: Redemption): TimelineStep[] {
  const { status } = redemption;
  const steps: TimelineStep[] = [
    { key: 'requested', label: m.account_requests_status_requested(), at: timeOf(redemption, 'requested') ?? redemption.createdAt, state: 'done' },
  ];
  const approvedAt = timeOf(redemption, 'approved');
  const released = (RELEASED_REDEMPTION_STATUSES as readonly RedemptionStatus[]).includes(status);
  const back = m.account_requests_points_back({ count: redemption.points });

  if (approvedAt) steps.push({ key: 'approved', label: m.account_requests_status_approved(), at: approvedAt, state: 'done' });
  else if (status === 'requested')
    steps.push(
      redemption.needsReview
        ? { key: 'approved', label: m.account_requests_step_approval(), at: null, state: 'now', note: m.account_requests_waits_for_check() }
        : { key: 'approved', label: m.account_requests_step_approval(), at: null, state: 'now', note: m.account_requests_approved_soon() },
    );

  if (status === 'ordering')
    steps.push({
      key: 'ordering',
      label: m.account_requests_status_ordering(),
      at: timeOf(redemption, 'ordering'),
      state: 'now',
      note: m.account_requests_ordering_now(),
    });

  if (status === 'delivered')
    steps.push({ key: 'delivered', label: m.account_requests_status_delivered(), at: timeOf(redemption, 'delivered'), state: 'done' });
  else if (released) {
    const label = redemptionStatusLabel(status);
    const why = status === 'cancelled' ? m.account_requests_you_cancelled() : redemption.reason ? redemption.reason : null;
    steps.push({ key: status, label, at: timeOf(redemption, status), state: 'stopped', note: [why, back].filter(Boolean).join(' ') });
  } else steps.push({ key: 'delivered', label: m.account_requests_status_delivered(), at: null, state: 'ahead', note: m.account_requests_sent_ahead() });
  return steps;
}
