/**
 * Field schemas and checks the activities' payload schemas share (projects, surveys, missions,
 * mission groups, mission entries).
 */
import { z } from '../zod.ts';
import { MESSAGES } from '../messages.ts';
import { isLanguage, LANGUAGES, type Language } from '../languages.ts';
import { PROGRAMME_LIMITS, type ItemTextField, type ItemTranslations } from '../projects.ts';

const L = PROGRAMME_LIMITS;

/** Required text; not aborting, so the cross-field checks below still run (an empty text cannot be too long anyway). */
export const requiredText = (max: number) => z.string({ error: MESSAGES.required }).trim().min(1, { error: MESSAGES.required }).max(max, MESSAGES.tooLong);
export const optionalText = (max: number) => z.string({ error: 'Must be text' }).trim().max(max, MESSAGES.tooLong);
export const enumOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: MESSAGES.invalidEnumValue });

/** A whole number of points, 0 or more. */
export const pointsSchema = z
  .number({ error: MESSAGES.required })
  .int('Enter a whole number')
  .min(0, 'Enter 0 or more')
  .max(L.pointsMax, `At most ${L.pointsMax}`);
/** A calendar date `YYYY-MM-DD`, or null. */
export const dateSchema = z.iso.date({ error: 'Enter a date (YYYY-MM-DD)' }).nullable();

/**
 * A day that filters a list or an export (`from`, `to`: `YYYY-MM-DD`, UTC), 1900 to 9998: beyond,
 * the database's timestamps would not take the day or the one after it (year 0000 does not exist).
 */
export const filterDaySchema = z.iso
  .date({ error: 'Enter a date (YYYY-MM-DD)' })
  .refine((day) => day >= '1900-01-01' && day <= '9998-12-31', 'Enter a date from 1900 to 9998');
/** A moment (ISO 8601 with a time zone offset, e.g. `2026-12-01T09:00:00Z`), or null. */
export const momentSchema = z.iso.datetime({ offset: true, error: 'Enter a date and time' }).nullable();
/** A database id: a whole number from 1. */
export const idSchema = z.number({ error: MESSAGES.required }).int().min(1).max(2_147_483_647);

/**
 * Cross-field checks run even when some fields already failed (as long as the body is an object),
 * so a form shows every problem at once instead of in rounds; they only read what they compare.
 */
export const everyObject = { when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null };

/** `closesAt` after `opensAt`, when both are set; reported on `closesAt`. */
export function datesInOrder<T extends { opensAt?: string | null; closesAt?: string | null }>(value: T, ctx: z.RefinementCtx): void {
  if (value.opensAt && value.closesAt && Date.parse(value.closesAt) <= Date.parse(value.opensAt)) {
    ctx.addIssue({ code: 'custom', path: ['closesAt'], message: 'Must be after the opening time' });
  }
}

/** A translation of a survey's or mission's text that is empty as written (decision 035). */
export const TRANSLATION_WITHOUT_SOURCE = 'Add the text in the original language first';

/**
 * A survey's or mission's `translations` (decision 035): per translatable field (the keys of
 * `limits`, each with its own maximum length), a map from language code (`en`, `de`, `es`, `ar`)
 * to text. Blank translations are none: they are dropped, and so is a field left without any.
 */
export function itemTranslationsSchema<F extends ItemTextField>(limits: Readonly<Record<F, number>>) {
  const languageMap = (max: number) =>
    z.record(z.string(), optionalText(max), { error: 'Must be an object' }).superRefine((texts, ctx) => {
      for (const code of Object.keys(texts))
        if (!isLanguage(code)) ctx.addIssue({ code: 'custom', path: [code], message: `Unknown language ${JSON.stringify(code)}: use ${LANGUAGES.join(', ')}` });
    });
  const shape = Object.fromEntries(Object.entries<number>(limits).map(([field, max]) => [field, languageMap(max).optional()])) as Record<
    F,
    z.ZodOptional<ReturnType<typeof languageMap>>
  >;
  return z.strictObject(shape, { error: 'Must be an object' }).transform((value): ItemTranslations => {
    const out: ItemTranslations = {};
    for (const [field, texts] of Object.entries(value) as [ItemTextField, Partial<Record<Language, string>> | undefined][]) {
      const kept = Object.fromEntries(Object.entries(texts ?? {}).filter(([, text]) => typeof text === 'string' && text !== ''));
      if (Object.keys(kept).length > 0) out[field] = kept;
    }
    return out;
  });
}

/**
 * No translation of a text that is empty as written: reported on `translations` (the field's
 * message) when a body carries both the text and its translations (an edit that sends only one of
 * them is checked by the server against the stored other).
 */
export function translatedTextsWritten(fields: readonly ItemTextField[]) {
  return (value: Partial<Record<ItemTextField, string>> & { translations?: ItemTranslations }, ctx: z.RefinementCtx): void => {
    const problem = untranslatableField(fields, value, value.translations);
    if (problem) ctx.addIssue({ code: 'custom', path: ['translations', problem], message: TRANSLATION_WITHOUT_SOURCE });
  };
}

/** The first of `fields` that has a (non-blank) translation but no text as written; null when none. */
export function untranslatableField(
  fields: readonly ItemTextField[],
  texts: Partial<Record<ItemTextField, string | undefined>>,
  translations: ItemTranslations | undefined,
): ItemTextField | null {
  for (const field of fields) {
    const translated = Object.values(translations?.[field] ?? {}).some((text) => typeof text === 'string' && text.trim() !== '');
    const source = texts[field];
    if (translated && typeof source === 'string' && source.trim() === '') return field;
  }
  return null;
}
