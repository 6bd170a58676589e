/**
 * The rewards screens' pure parts (issue 30 §2, §4): the reward form's values and the API body
 * they make, the settings form's likewise, the fulfilment queue's state in the address bar
 * (`/admin/rewards/redemptions?status=&rewardId=&q=&from=&to=&page=`), its API path and CSV link,
 * and the words of statuses, kinds and fulfilments. Unit-testable; no zod here (the forms load it
 * on their first validation: `form-schema.ts`).
 */
import type { ListPage } from '../../../shared/list.ts';
import {
  REDEMPTION_STATUSES,
  type AdminRedemption,
  type AdminReward,
  type RedemptionStatus,
  type RewardFulfilment,
  type RewardKind,
  type RewardSettings,
} from '../../../shared/rewards.ts';
import { currentLanguage, m } from '../../../shared/i18n.ts';

// ---------------------------------------------------------------------------------------------
// Words

// Each a message (called at render: the words are in the page's language).
export const KIND_LABELS: Readonly<Record<RewardKind, () => string>> = {
  gift_card: m.admin_rewards_kind_gift_card,
  donation: m.admin_rewards_kind_donation,
  custom: m.admin_rewards_kind_custom,
};
export const FULFILMENT_LABELS: Readonly<Record<RewardFulfilment, () => string>> = {
  manual: m.admin_rewards_fulfilment_manual,
  provider: m.admin_rewards_fulfilment_provider,
};
export const STATUS_LABELS: Readonly<Record<RedemptionStatus, () => string>> = {
  requested: m.admin_rewards_status_requested,
  approved: m.admin_rewards_status_approved,
  ordering: m.admin_rewards_status_ordering,
  delivered: m.admin_rewards_status_delivered,
  rejected: m.admin_rewards_status_rejected,
  failed: m.admin_rewards_status_failed,
  cancelled: m.admin_rewards_status_cancelled,
};
/** The status filter's words: what each status waits for. */
export const STATUS_FILTER_LABELS: Readonly<Record<RedemptionStatus, () => string>> = {
  ...STATUS_LABELS,
  requested: m.admin_rewards_status_filter_requested,
  approved: m.admin_rewards_status_filter_approved,
};

/** "10.00 EUR" (two decimals when the value has any). */
export function formatMoney(value: number, currency: string): string {
  const language = currentLanguage();
  const text = Number.isInteger(value)
    ? value.toLocaleString(language)
    : value.toLocaleString(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${text} ${currency}`;
}

/** A reward's values in words: "5, 10, 25 EUR" or "5–100 EUR in steps of 5". */
export function valuesText(reward: Pick<AdminReward, 'denominations' | 'range' | 'currency'>): string {
  if (reward.range) {
    const { min, max, step } = reward.range;
    const bare = (value: number) => formatMoney(value, reward.currency).replace(` ${reward.currency}`, '');
    return m.admin_rewards_values_range({ min: bare(min), max: formatMoney(max, reward.currency), step: bare(step) });
  }
  return `${(reward.denominations ?? []).map((value) => formatMoney(value, reward.currency).replace(` ${reward.currency}`, '')).join(', ')} ${reward.currency}`;
}

/** The countries column: "Everywhere" or the codes. */
export const countriesText = (countries: readonly string[]) => (countries.length === 0 ? m.admin_rewards_everywhere() : countries.join(', '));

// ---------------------------------------------------------------------------------------------
// The reward form

export type ValuesMode = 'fixed' | 'range';

/** What the reward dialog holds: the API's fields (so its field messages land beside them), in text where typed. */
export interface RewardFormValues {
  title: string;
  description: string;
  kind: RewardKind;
  fulfilment: RewardFulfilment;
  providerProductId: string;
  currency: string;
  /** Fixed values or a range (form only: which of `denominations` and `range` is sent). */
  valuesMode: ValuesMode;
  /** "5, 10, 25" */
  denominations: string;
  range: { min: string; max: string; step: string };
  /** "NL, BE" (empty: everywhere) */
  countries: string;
  active: boolean;
  /** Custom rewards: blank for no limit. */
  stock: string;
  imageMediaId: string | null;
}

/** The body's fields the form shows messages for (the API's names). */
export const REWARD_FORM_FIELDS = [
  'title',
  'description',
  'kind',
  'fulfilment',
  'providerProductId',
  'currency',
  'denominations',
  'range',
  'countries',
  'active',
  'stock',
  'imageMediaId',
] as const satisfies readonly (keyof RewardFormValues)[];

const numberText = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

/** A new reward's form, or an existing one's. */
export function rewardFormValues(reward: AdminReward | null): RewardFormValues {
  return {
    title: reward?.title ?? '',
    description: reward?.description ?? '',
    kind: reward?.kind ?? 'gift_card',
    fulfilment: reward?.fulfilment ?? 'manual',
    providerProductId: reward?.providerProductId ?? '',
    currency: reward?.currency ?? 'EUR',
    valuesMode: reward?.range ? 'range' : 'fixed',
    denominations: (reward?.denominations ?? []).join(', '),
    range: { min: numberText(reward?.range?.min), max: numberText(reward?.range?.max), step: numberText(reward?.range?.step) },
    countries: (reward?.countries ?? []).join(', '),
    active: reward?.active ?? true,
    stock: numberText(reward?.stock),
    imageMediaId: reward?.imageMediaId ?? null,
  };
}

/** A typed number: blank is NaN (the schema says "Enter an amount"), commas as decimal points. */
function amount(text: string): number {
  const trimmed = text.trim().replace(',', '.');
  return trimmed === '' ? Number.NaN : Number(trimmed);
}

/** The list typed in a box: split on commas, semicolons and spaces, blanks left out. */
export function splitList(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** The body of `POST /api/admin/rewards` (and, compared with the reward's, of `PATCH`): the other mode's values, a product id without a provider and a stock of a reward that is not custom are left out or cleared. */
export function rewardBody(values: RewardFormValues): Record<string, unknown> {
  const stock = values.stock.trim();
  return {
    title: values.title,
    description: values.description,
    kind: values.kind,
    fulfilment: values.fulfilment,
    providerProductId: values.fulfilment === 'provider' ? values.providerProductId.trim() || null : null,
    currency: values.currency.trim().toUpperCase(),
    ...(values.valuesMode === 'fixed'
      ? { denominations: splitList(values.denominations).map(amount) }
      : { range: { min: amount(values.range.min), max: amount(values.range.max), step: amount(values.range.step) } }),
    countries: splitList(values.countries).map((code) => code.toUpperCase()),
    active: values.active,
    stock: values.kind === 'custom' && stock !== '' ? Number(stock) : null,
    imageMediaId: values.imageMediaId,
  };
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A `PATCH` body: the fields whose value differs from the reward's as it was loaded. */
export function rewardPatch(before: RewardFormValues, after: RewardFormValues): Record<string, unknown> {
  const was = rewardBody(before);
  const now = rewardBody(after);
  return Object.fromEntries(Object.entries(now).filter(([key, value]) => !same(was[key], value)));
}

// ---------------------------------------------------------------------------------------------
// The settings form

export interface SettingsFormValues {
  /** Points per one unit of each currency, a row each. */
  pointsPerUnit: { currency: string; points: string }[];
  minimumPoints: string;
  oneOpenRequest: boolean;
  reviewFirstRedemption: boolean;
  taxForm: { on: boolean; yearlyValue: string; currency: string };
  approvalAbove: { on: boolean; value: string; currency: string };
}

export const SETTINGS_FORM_FIELDS = [
  'pointsPerUnit',
  'minimumPoints',
  'oneOpenRequest',
  'reviewFirstRedemption',
  'taxForm',
  'approvalAbove',
] as const satisfies readonly (keyof SettingsFormValues)[];

export function settingsFormValues(settings: RewardSettings): SettingsFormValues {
  const firstCurrency = Object.keys(settings.pointsPerUnit)[0] ?? 'EUR';
  return {
    pointsPerUnit: Object.entries(settings.pointsPerUnit).map(([currency, points]) => ({ currency, points: String(points) })),
    minimumPoints: String(settings.minimumPoints),
    oneOpenRequest: settings.oneOpenRequest,
    reviewFirstRedemption: settings.reviewFirstRedemption,
    taxForm: {
      on: settings.taxForm !== null,
      yearlyValue: numberText(settings.taxForm?.yearlyValue),
      currency: settings.taxForm?.currency ?? firstCurrency,
    },
    approvalAbove: {
      on: settings.approvalAbove !== null,
      value: numberText(settings.approvalAbove?.value),
      currency: settings.approvalAbove?.currency ?? firstCurrency,
    },
  };
}

const wholeNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));

/** The body of `PUT /api/admin/rewards/settings`: the whole object. */
export function settingsBody(values: SettingsFormValues): RewardSettings {
  const pointsPerUnit: Record<string, number> = {};
  for (const row of values.pointsPerUnit) {
    const currency = row.currency.trim().toUpperCase();
    if (currency === '' && row.points.trim() === '') continue;
    pointsPerUnit[currency] = wholeNumber(row.points);
  }
  return {
    pointsPerUnit,
    minimumPoints: wholeNumber(values.minimumPoints),
    oneOpenRequest: values.oneOpenRequest,
    reviewFirstRedemption: values.reviewFirstRedemption,
    taxForm: values.taxForm.on ? { yearlyValue: amount(values.taxForm.yearlyValue), currency: values.taxForm.currency.trim().toUpperCase() } : null,
    approvalAbove: values.approvalAbove.on ? { value: amount(values.approvalAbove.value), currency: values.approvalAbove.currency.trim().toUpperCase() } : null,
  };
}

// ---------------------------------------------------------------------------------------------
// The fulfilment queue

/** A request as staff see it (`GET /api/admin/redemptions`): never its code or link. */
export type AdminRedemptionPage = ListPage<AdminRedemption>;

/** `POST /api/admin/redemptions/approve`. */
export interface BulkApproveResult {
  approved: number[];
  skipped: { id: number; reason: 'not_found' | 'conflict' | 'not_approvable' | string }[];
}

export interface QueueQuery {
  status: RedemptionStatus | 'all';
  rewardId: number | null;
  q: string;
  from: string;
  to: string;
  page: number;
}

/** What waits for a person first: requests not yet approved. */
export const DEFAULT_QUEUE_QUERY: QueueQuery = { status: 'requested', rewardId: null, q: '', from: '', to: '', page: 1 };

/** Rows a page (the list contract's default; `shared/list.ts` would bring zod with it). */
export const QUEUE_PAGE_SIZE = 10;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isStatus = (value: string | null): value is RedemptionStatus => value !== null && (REDEMPTION_STATUSES as readonly string[]).includes(value);

/** The queue's state from `location.search` (`status=all`: every status); anything unknown is left at its default. */
export function readQueueQuery(search: string): QueueQuery {
  const params = new URLSearchParams(search);
  const status = params.get('status');
  const rewardId = Number(params.get('rewardId'));
  const page = Number(params.get('page'));
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  return {
    status: status === 'all' ? 'all' : isStatus(status) ? status : DEFAULT_QUEUE_QUERY.status,
    rewardId: Number.isInteger(rewardId) && rewardId > 0 ? rewardId : null,
    q: (params.get('q') ?? '').trim(),
    from: DAY.test(from) ? from : '',
    to: DAY.test(to) ? to : '',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The filters as the API takes them (defaults left out; every status: no `status`). */
function filterParams(query: QueueQuery): Record<string, string> {
  const params: Record<string, string> = {};
  if (query.status !== 'all') params.status = query.status;
  if (query.rewardId !== null) params.rewardId = String(query.rewardId);
  if (query.q) params.q = query.q;
  if (query.from) params.from = query.from;
  if (query.to) params.to = query.to;
  return params;
}

/** `location.search` for the state (the default status left out, every status as `all`). */
export function writeQueueQuery(query: QueueQuery): string {
  const params = filterParams(query);
  if (query.status === DEFAULT_QUEUE_QUERY.status) delete params.status;
  else if (query.status === 'all') params.status = 'all';
  if (query.page > 1) params.page = String(query.page);
  const search = new URLSearchParams(params).toString();
  return search ? `?${search}` : '';
}

/** The API's address of the page asked for: oldest first. */
export function queueApiPath(query: QueueQuery): string {
  const params = { ...filterParams(query), page: String(query.page), pageSize: String(QUEUE_PAGE_SIZE), sort: 'requested', dir: 'asc' };
  return `/api/admin/redemptions?${new URLSearchParams(params).toString()}`;
}

/** "Download CSV": the period and status filters (the reconciliation export). */
export function queueCsvHref(query: QueueQuery): string {
  const params: Record<string, string> = {};
  if (query.from) params.from = query.from;
  if (query.to) params.to = query.to;
  if (query.status !== 'all') params.status = query.status;
  const search = new URLSearchParams(params).toString();
  return `/api/admin/redemptions.csv${search ? `?${search}` : ''}`;
}

/** Whether anything but the default status filters the queue. */
export function isQueueFiltered(query: QueueQuery): boolean {
  return query.status !== DEFAULT_QUEUE_QUERY.status || query.rewardId !== null || query.q !== '' || query.from !== '' || query.to !== '';
}

/** What an admin may do to a request in its status (the API's rules; delivering by hand: manual rewards only). */
export function actionsFor(status: RedemptionStatus, manual: boolean): { approve: boolean; reject: boolean; deliver: boolean } {
  const open = status === 'requested' || status === 'approved';
  return { approve: status === 'requested', reject: open, deliver: open && manual };
}

const SKIP_REASONS: Readonly<Record<string, () => string>> = {
  not_found: m.admin_rewards_skip_not_found,
  conflict: m.admin_rewards_skip_conflict,
  not_approvable: m.admin_rewards_skip_not_approvable,
};

/** The bulk approval's outcome in words: "3 requests approved. 1 skipped: #12 changed meanwhile." */
export function bulkApproveText(result: BulkApproveResult): string {
  const parts = [m.admin_rewards_bulk_approved({ count: result.approved.length })];
  if (result.skipped.length > 0) {
    const shown = result.skipped
      .slice(0, 10)
      .map((skip) => `#${skip.id} ${SKIP_REASONS[skip.reason]?.() ?? skip.reason}`)
      .join(', ');
    parts.push(m.admin_rewards_bulk_skipped({ count: result.skipped.length, list: `${shown}${result.skipped.length > 10 ? ', …' : ''}` }));
  }
  return parts.join(' ');
}
