/**
 * Rewards (issue 30; zod-free): what points become — gift cards, donations and custom rewards — and
 * the redemptions that spend them. Payload schemas: `schemas/rewards.ts`. The words of the
 * refusals are the ones the participant reads.
 */

export const REWARD_KINDS = ['gift_card', 'donation', 'custom'] as const;
export type RewardKind = (typeof REWARD_KINDS)[number];

/** `manual`: an admin delivers the code or link by hand; `provider`: ordered from the gift-card provider by a job. */
export const REWARD_FULFILMENTS = ['manual', 'provider'] as const;
export type RewardFulfilment = (typeof REWARD_FULFILMENTS)[number];

/**
 * A redemption's life: `requested` (points held) → `approved` → (`ordering`, provider rewards) →
 * `delivered` (the hold is posted: points spent); or `rejected`, `failed`, `cancelled` (the hold
 * is released: points back).
 */
export const REDEMPTION_STATUSES = ['requested', 'approved', 'ordering', 'delivered', 'rejected', 'failed', 'cancelled'] as const;
export type RedemptionStatus = (typeof REDEMPTION_STATUSES)[number];
/** The statuses that still hold points (the request is open). */
export const OPEN_REDEMPTION_STATUSES = ['requested', 'approved', 'ordering'] as const satisfies readonly RedemptionStatus[];
/** The statuses that gave the points back. */
export const RELEASED_REDEMPTION_STATUSES = ['rejected', 'failed', 'cancelled'] as const satisfies readonly RedemptionStatus[];

export const REWARD_LIMITS = {
  titleMax: 200,
  descriptionMax: 5_000,
  providerProductIdMax: 200,
  /** The most a single redemption may be worth, in the reward's currency. */
  valueMax: 10_000,
  denominationsMax: 20,
  countriesMax: 250,
  stockMax: 1_000_000,
  reasonMax: 500,
  codeMax: 500,
  linkMax: 2_000,
  noteMax: 1_000,
  /** An `Idempotency-Key` (or body `key`): 1 to 200 printable characters. */
  idempotencyKeyMax: 200,
  /** Points per one unit of a currency (100 points = 1.00 EUR is `{ EUR: 100 }`). */
  pointsPerUnitMax: 1_000_000,
  minimumPointsMax: 10_000_000,
} as const;

/** The community's rewards settings (`GET/PUT /api/admin/rewards/settings`). */
export interface RewardSettings {
  /** Points that make one unit of each currency offered (e.g. `{ EUR: 100 }`: 100 points = 1.00 EUR). */
  pointsPerUnit: Record<string, number>;
  /** No redemption below this many points. */
  minimumPoints: number;
  /** At most one open (requested, approved or ordering) redemption per participant. */
  oneOpenRequest: boolean;
  /** A participant's first redemption always waits for a person's approval. */
  reviewFirstRedemption: boolean;
  /** Above this value redeemed in a calendar year (UTC), a tax form must be on file first; null: off. */
  taxForm: { yearlyValue: number; currency: string } | null;
  /** A redemption worth more than this always waits for a person's approval; null: off. */
  approvalAbove: { value: number; currency: string } | null;
}

/** `GET/PUT /api/admin/rewards/settings` answer: the settings, and the gift-card provider this server orders from (`REWARDS_PROVIDER`; null: none). */
export interface AdminRewardSettings extends RewardSettings {
  provider: 'tremendous' | null;
}

export const DEFAULT_REWARD_SETTINGS: RewardSettings = {
  pointsPerUnit: { EUR: 100 },
  minimumPoints: 500,
  oneOpenRequest: true,
  reviewFirstRedemption: true,
  taxForm: null,
  approvalAbove: null,
};

/** The refusals of `POST /api/redemptions` (409 with these codes), in the participant's words. */
export const REDEMPTION_REFUSALS = {
  insufficient_points: 'You do not have enough points for this reward',
  below_minimum: 'This is below the smallest redemption',
  open_request_exists: 'You already have a reward request open: wait until it is sent, or cancel it',
  not_available_here: 'This reward is not offered in your country',
  tax_form_required: 'We need a tax form from you before we can send more rewards this year: contact us',
  out_of_stock: 'This reward is out of stock',
} as const;
export type RedemptionRefusal = keyof typeof REDEMPTION_REFUSALS;

/** Why a provider reward failed, as the participant reads it (the provider's own words go to staff: the audit log). */
export const REWARD_PROVIDER_FAILED = 'The gift-card provider could not send this reward. Your points are back: choose another reward, or contact us.';

/** Why a reward cannot be chosen, as its card says (`unavailableReason`). */
export const REWARD_UNAVAILABLE = {
  country: 'Not offered in your country',
  noCountry: 'Add your postal address to see the rewards offered in your country',
  outOfStock: 'Out of stock',
  noRate: 'Not available yet',
} as const;

/** "You need 350 more points". */
export const morePointsNeeded = (points: number) => `You need ${points.toLocaleString('en')} more points`;

/** A value in a currency's minor units (cents): values have at most two decimals. */
export const toMinorUnits = (value: number) => Math.round(value * 100);
export const fromMinorUnits = (minor: number) => minor / 100;

/**
 * What `value` of a currency costs in points at `pointsPerUnit` points a unit: rounded up, so a
 * reward never costs less than its value.
 */
export function pointsFor(value: number, pointsPerUnit: number): number {
  return Math.ceil((toMinorUnits(value) * pointsPerUnit) / 100);
}

/** A reward's values: fixed denominations, or a range with a step. */
export type RewardValues = number[] | { min: number; max: number; step: number };

/** Whether `value` is one the reward offers. */
export function offersValue(values: RewardValues, value: number): boolean {
  const minor = toMinorUnits(value);
  if (Array.isArray(values)) return values.some((denomination) => toMinorUnits(denomination) === minor);
  const [min, max, step] = [toMinorUnits(values.min), toMinorUnits(values.max), toMinorUnits(values.step)];
  return minor >= min && minor <= max && step > 0 && (minor - min) % step === 0;
}

/** A reward as participants see it (`GET /api/rewards`). */
export interface RewardView {
  id: number;
  title: string;
  description: string;
  kind: RewardKind;
  imageUrl: string | null;
  currency: string;
  denominations: RewardValues;
  pointsPerUnit: number | null;
  /** Whether this participant may choose it now (their country, stock, a rate for its currency). */
  available: boolean;
  unavailableReason: string | null;
}

/** `{ available, pending, held }`: `available` already excludes held points. */
export interface PointsBalance {
  available: number;
  pending: number;
  held: number;
}

/** One step of a redemption's life, with its time. */
export interface RedemptionStep {
  status: RedemptionStatus;
  at: string;
}

/** A redemption as its owner (and staff, without `delivery`) see it. */
export interface Redemption {
  id: number;
  reward: { id: number; title: string; kind: RewardKind };
  value: number;
  currency: string;
  points: number;
  status: RedemptionStatus;
  /** Why it was rejected or failed (or the staff's note to the participant). */
  reason: string | null;
  timeline: RedemptionStep[];
  /** The owner's, once delivered: the gift card's code and/or link (never shown to staff). */
  delivery: { code?: string; link?: string } | null;
  /** Whether it waits for a person's approval (first redemption, above the approval value). */
  needsReview: boolean;
  createdAt: string;
}

/**
 * A redemption as staff see it (`/api/admin/redemptions`): never the code or link; its reward says
 * how it is delivered (the queue offers "Mark delivered" for `manual` ones), and whose it is.
 */
export interface AdminRedemption extends Omit<Redemption, 'delivery' | 'reward'> {
  reward: Redemption['reward'] & { fulfilment: RewardFulfilment };
  user: { id: number; email: string; firstName: string | null; lastName: string | null };
}

/** A reward as staff see and edit it (`/api/admin/rewards`): the values split into fixed `denominations` or a `range`. */
export interface AdminReward {
  id: number;
  title: string;
  description: string;
  kind: RewardKind;
  fulfilment: RewardFulfilment;
  providerProductId: string | null;
  currency: string;
  denominations: number[] | null;
  range: { min: number; max: number; step: number } | null;
  countries: string[];
  active: boolean;
  /** Custom rewards: how many are left (null: no limit). */
  stock: number | null;
  imageMediaId: string | null;
  imageUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `GET /api/rewards`: the active rewards as this participant may choose them, their balance, and the settings a screen needs to price them. */
export interface RewardCatalogue {
  items: RewardView[];
  balance: PointsBalance;
  settings: Pick<RewardSettings, 'minimumPoints' | 'pointsPerUnit'>;
}

/** `PUT /api/admin/users/{id}/tax-form`: whether a tax form is on file, since when. */
export interface TaxFormRecord {
  onFile: boolean;
  taxFormOnFileAt: string | null;
}
