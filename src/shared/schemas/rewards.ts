/**
 * Rewards' payloads (zod): the catalogue (`/api/admin/rewards`), the community's settings
 * (`/api/admin/rewards/settings`) and the tax-form record. Constants, words and answer types:
 * `../rewards.ts`.
 */
import { listQuerySchema } from '../list.ts';
import { MESSAGES } from '../messages.ts';
import { REWARD_FULFILMENTS, REWARD_KINDS, REWARD_LIMITS as L, toMinorUnits, type RewardValues } from '../rewards.ts';
import { z } from '../zod.ts';
import { enumOf, everyObject, optionalText, requiredText } from './fields.ts';

// ---------------------------------------------------------------------------------------------
// Currencies, countries, values

/** ISO 4217 codes this runtime knows (empty where `Intl.supportedValuesOf` is missing: then the pattern alone decides). */
const CURRENCIES: ReadonlySet<string> = new Set(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : []);
const CURRENCY_MESSAGE = 'Enter a currency code (ISO 4217, e.g. EUR)';

/** Whether `code` is an ISO 4217 currency code: three upper-case letters the runtime knows. */
export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && (CURRENCIES.size === 0 || CURRENCIES.has(code));
}

export const currencySchema = z.string({ error: MESSAGES.required }).refine(isCurrencyCode, CURRENCY_MESSAGE);

/**
 * Region codes that are not countries (groupings, the unknown region, reserved and withdrawn
 * codes) though the runtime names them: the same exclusions as the address form's list
 * (`src/lib/countries.ts`, browser code this module may not import).
 */
const NOT_COUNTRIES = new Set('EU EZ UN QO ZZ AC CP CQ DG EA IC TA AN BU CS DD DY FX HV NH NT RH SU TP UK VD YD YU ZR'.split(' '));
let regionNames: Intl.DisplayNames | null | undefined;

/**
 * Whether `code` is an ISO 3166-1 alpha-2 country code (upper case), as the address form offers
 * them: a code the runtime's region names know, user-assigned ranges (AA, QM–QZ, X?, except XK)
 * and the codes above left out.
 */
export function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code)) return false;
  if (code === 'AA' || (code[0] === 'Q' && code >= 'QM') || (code[0] === 'X' && code !== 'XK')) return false;
  if (regionNames === undefined) {
    try {
      regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
    } catch {
      regionNames = null;
    }
  }
  if (!regionNames) return true;
  try {
    const name = regionNames.of(code);
    return name !== undefined && name !== code;
  } catch {
    return false;
  }
}

const countrySchema = z.string({ error: MESSAGES.required }).refine(isCountryCode, 'Enter country codes (ISO 3166-1, e.g. NL)');

/** A value in a currency: more than 0, at most two decimals, at most `max`. */
export const moneySchema = (max: number, min: 'positive' | 'zero' = 'positive') =>
  z
    .number({ error: 'Enter an amount' })
    .refine((value) => Number.isFinite(value) && (min === 'zero' ? value >= 0 : value > 0), min === 'zero' ? 'Enter 0 or more' : 'Enter more than 0')
    .refine((value) => value <= max, `At most ${max.toLocaleString('en')}`)
    // Values are kept in minor units (cents): a third decimal would be lost.
    .refine((value) => Math.abs(value * 100 - toMinorUnits(value)) < 1e-6, 'At most two decimals');

const valueSchema = moneySchema(L.valueMax);

// ---------------------------------------------------------------------------------------------
// The catalogue

const rangeSchema = z.strictObject({ min: valueSchema, max: valueSchema, step: valueSchema }, { error: 'Enter min, max and step' });

const rewardFields = {
  title: requiredText(L.titleMax),
  description: optionalText(L.descriptionMax),
  kind: enumOf(REWARD_KINDS),
  fulfilment: enumOf(REWARD_FULFILMENTS),
  /** Empty text is no product id. */
  providerProductId: optionalText(L.providerProductIdMax)
    .nullable()
    .transform((value) => (value ? value : null)),
  currency: currencySchema,
  denominations: z
    .array(valueSchema, { error: 'Enter the values offered' })
    .min(1, 'Enter at least one value')
    .max(L.denominationsMax, `At most ${L.denominationsMax} values`)
    .refine((values) => new Set(values.map(toMinorUnits)).size === values.length, 'Each value once')
    // Smallest first, as the participant's choices list them.
    .transform((values) => [...values].sort((a, b) => a - b)),
  range: rangeSchema,
  countries: z
    .array(countrySchema, { error: 'Enter a list of country codes' })
    .max(L.countriesMax, `At most ${L.countriesMax} countries`)
    .transform((codes) => [...new Set(codes)].sort()),
  active: z.boolean({ error: 'Must be true or false' }),
  stock: z
    .number({ error: 'Enter a whole number' })
    .int('Enter a whole number')
    .min(0, 'Enter 0 or more')
    .max(L.stockMax, `At most ${L.stockMax.toLocaleString('en')}`)
    .nullable(),
  /** A photo uploaded by staff (`POST /api/media`), or null for none. */
  imageMediaId: z.string({ error: 'Upload an image' }).max(100, MESSAGES.tooLong).nullable(),
};

/** What the cross-field rules of a reward read (a whole reward: a new one, or a kept one with a patch applied). */
export interface RewardShape {
  kind?: string | undefined;
  fulfilment?: string | undefined;
  providerProductId?: string | null | undefined;
  denominations?: unknown;
  range?: { min?: unknown; max?: unknown; step?: unknown } | null | undefined;
  stock?: number | null | undefined;
}

/**
 * The rules between a reward's fields, as `{ field: message }`: fixed values or a range (exactly
 * one); a range's min at most its max; a provider reward names its product; only custom rewards
 * keep a stock. Shared by the create schema and the service's patch (which checks the merged reward).
 */
export function rewardShapeProblems(reward: RewardShape): Record<string, string> {
  const problems: Record<string, string> = {};
  const hasValues = reward.denominations !== undefined && reward.denominations !== null;
  const hasRange = reward.range !== undefined && reward.range !== null;
  if (hasValues && hasRange) problems.denominations = 'Give fixed values or a range, not both';
  else if (!hasValues && !hasRange) problems.denominations = 'Give fixed values or a range';
  const range = reward.range;
  if (range && typeof range.min === 'number' && typeof range.max === 'number' && range.min > range.max)
    problems.range = 'The minimum must not be above the maximum';
  if (reward.fulfilment === 'provider' && !reward.providerProductId) problems.providerProductId = "Enter the provider's product id";
  if (reward.stock !== undefined && reward.stock !== null && reward.kind !== undefined && reward.kind !== 'custom')
    problems.stock = 'Only custom rewards keep a stock';
  return problems;
}

function checkShape(value: RewardShape, ctx: z.RefinementCtx): void {
  for (const [field, message] of Object.entries(rewardShapeProblems(value))) ctx.addIssue({ code: 'custom', path: [field], message });
}

/** `POST /api/admin/rewards`. */
export const rewardCreateSchema = z
  .strictObject({
    title: rewardFields.title,
    description: rewardFields.description.default(''),
    kind: rewardFields.kind,
    fulfilment: rewardFields.fulfilment,
    providerProductId: rewardFields.providerProductId.optional(),
    currency: rewardFields.currency,
    denominations: rewardFields.denominations.optional(),
    range: rewardFields.range.optional(),
    countries: rewardFields.countries.default([]),
    active: rewardFields.active.default(true),
    stock: rewardFields.stock.optional(),
    imageMediaId: rewardFields.imageMediaId.optional(),
  })
  .superRefine(checkShape, everyObject);
export type RewardCreateInput = z.input<typeof rewardCreateSchema>;

/**
 * `PATCH /api/admin/rewards/{id}`: any of the fields; `denominations` or `range` replaces the
 * values (the other is dropped); null clears `providerProductId`, `stock` and `imageMediaId`.
 * The rules between fields are checked against the reward with the patch applied.
 */
export const rewardPatchSchema = z
  .strictObject({
    ...rewardFields,
    providerProductId: rewardFields.providerProductId,
    denominations: rewardFields.denominations,
    range: rewardFields.range,
  })
  .partial()
  .superRefine((value, ctx) => {
    if (value.denominations !== undefined && value.range !== undefined)
      ctx.addIssue({ code: 'custom', path: ['denominations'], message: 'Give fixed values or a range, not both' });
  }, everyObject);
export type RewardPatchInput = z.input<typeof rewardPatchSchema>;

/** `GET /api/admin/rewards?q=&active=&kind=&page=&pageSize=&sort=&dir=` (the list contract; `q` searches title and product id). */
export const REWARD_LIST_SORTS = ['updated', 'title', 'created'] as const;
export const rewardListQuerySchema = listQuerySchema(REWARD_LIST_SORTS).extend({
  active: z.enum(['true', 'false'], { error: MESSAGES.invalidEnumValue }).optional(),
  kind: enumOf(REWARD_KINDS).optional(),
});

/** The values a stored reward offers, as the API splits them: fixed `denominations` or a `range`. */
export function splitValues(values: RewardValues): { denominations: number[] | null; range: { min: number; max: number; step: number } | null } {
  return Array.isArray(values) ? { denominations: values, range: null } : { denominations: null, range: values };
}

// ---------------------------------------------------------------------------------------------
// Settings

/** The most a yearly tax-form threshold may be, in its currency. */
export const TAX_FORM_YEARLY_VALUE_MAX = 10_000_000;
/** At most this many currencies have a rate. */
export const CURRENCIES_WITH_RATES_MAX = 50;

/** `PUT /api/admin/rewards/settings`: the whole object (`RewardSettings`). */
export const rewardSettingsSchema = z.strictObject({
  pointsPerUnit: z
    .record(
      z.string().refine(isCurrencyCode),
      z
        .number({ error: 'Enter a whole number of points' })
        .int('Enter a whole number of points')
        .min(1, 'Enter 1 or more')
        .max(L.pointsPerUnitMax, `At most ${L.pointsPerUnitMax.toLocaleString('en')}`),
      // A key that is not a currency is reported in the record's words: say which words.
      { error: (issue) => (issue.code === 'invalid_key' ? CURRENCY_MESSAGE : 'Enter points per unit of each currency (e.g. { "EUR": 100 })') },
    )
    .refine((rates) => Object.keys(rates).length <= CURRENCIES_WITH_RATES_MAX, `At most ${CURRENCIES_WITH_RATES_MAX} currencies`),
  minimumPoints: z
    .number({ error: 'Enter a whole number of points' })
    .int('Enter a whole number of points')
    .min(0, 'Enter 0 or more')
    .max(L.minimumPointsMax, `At most ${L.minimumPointsMax.toLocaleString('en')}`),
  oneOpenRequest: z.boolean({ error: 'Must be true or false' }),
  reviewFirstRedemption: z.boolean({ error: 'Must be true or false' }),
  taxForm: z
    .strictObject(
      { yearlyValue: moneySchema(TAX_FORM_YEARLY_VALUE_MAX), currency: currencySchema },
      { error: 'Enter a yearly value and its currency, or null' },
    )
    .nullable(),
  approvalAbove: z
    .strictObject({ value: moneySchema(L.valueMax, 'zero'), currency: currencySchema }, { error: 'Enter a value and its currency, or null' })
    .nullable(),
});
export type RewardSettingsInput = z.input<typeof rewardSettingsSchema>;

// ---------------------------------------------------------------------------------------------
// Tax forms

/** `PUT /api/admin/users/{id}/tax-form`: whether the participant's tax form was received. */
export const taxFormSchema = z.strictObject({ onFile: z.boolean({ error: 'Must be true or false' }) });
