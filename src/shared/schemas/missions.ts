/** Missions' payloads (zod). Constants and answer types: `../missions.ts`; entries' payloads: `mission-entries.ts`. */
import { z } from '../zod.ts';
import { MESSAGES } from '../messages.ts';
import { REVIEW_MODES } from '../missions.ts';
import { ACTIVITY_STATUSES, PROGRAMME_LIMITS } from '../projects.ts';
import {
  datesInOrder,
  enumOf,
  everyObject,
  idSchema,
  itemTranslationsSchema,
  momentSchema,
  optionalText,
  pointsSchema,
  requiredText,
  translatedTextsWritten,
} from './fields.ts';

const L = PROGRAMME_LIMITS;

const entriesSchema = z
  .strictObject({
    min: z.number({ error: MESSAGES.required }).int('Enter a whole number').min(1, 'At least 1').max(L.entriesMax, `At most ${L.entriesMax}`),
    max: z.number({ error: MESSAGES.required }).int('Enter a whole number').min(1, 'At least 1').max(L.entriesMax, `At most ${L.entriesMax}`),
    /** Most entries per calendar day of the participant (1 for a diary); null: no daily limit. */
    perDay: z.number().int('Enter a whole number').min(1, 'At least 1').max(L.perDayMax, `At most ${L.perDayMax}`).nullable().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.max < value.min) ctx.addIssue({ code: 'custom', path: ['max'], message: 'Must be at least the minimum' });
  });

/** GTIN, EAN or SKU, loosely: 1–50 letters, digits, `-`, `_`, `.`; blank or null: none. */
const productIdSchema = z
  .string({ error: 'Must be text' })
  .trim()
  .max(50, 'At most 50 characters')
  .regex(/^[A-Za-z0-9._-]*$/, 'Use letters, digits, -, _ or . (a GTIN, EAN or SKU)')
  .nullable()
  .transform((value) => (value === '' ? null : value));

const missionFields = {
  title: requiredText(L.titleMax),
  instructions: optionalText(L.instructionsMax),
  formId: idSchema,
  formVersion: z.number().int().min(1).nullable(),
  points: pointsSchema,
  productId: productIdSchema,
  opensAt: momentSchema,
  closesAt: momentSchema,
  review: enumOf(REVIEW_MODES),
  entries: entriesSchema,
  status: enumOf(ACTIVITY_STATUSES),
  /** The title's and instructions' translations (decision 035): `{ "instructions": { "ar": "…" } }`. */
  translations: itemTranslationsSchema({ title: L.titleMax, instructions: L.instructionsMax }),
};

/** No translation of a text empty as written (`translations`' field message). */
const missionTranslationsWritten = translatedTextsWritten(['title', 'instructions']);

/** `POST /api/admin/projects/{id}/missions`. */
export const missionCreateSchema = z
  .strictObject({
    title: missionFields.title,
    instructions: missionFields.instructions.default(''),
    formId: missionFields.formId,
    formVersion: missionFields.formVersion.optional(),
    points: missionFields.points.default(0),
    productId: missionFields.productId.default(null),
    opensAt: missionFields.opensAt.default(null),
    closesAt: missionFields.closesAt.default(null),
    review: missionFields.review.default('manual'),
    entries: missionFields.entries.default({ min: 1, max: 1, perDay: null }),
    status: missionFields.status.default('draft'),
    translations: missionFields.translations.default({}),
  })
  .superRefine(datesInOrder, everyObject)
  .superRefine(missionTranslationsWritten, everyObject);
export type MissionCreateInput = z.input<typeof missionCreateSchema>;

/** `PATCH /api/admin/missions/{id}`. */
export const missionPatchSchema = z
  .strictObject(missionFields)
  .partial()
  .superRefine(datesInOrder, everyObject)
  .superRefine(missionTranslationsWritten, everyObject);
export type MissionPatchInput = z.input<typeof missionPatchSchema>;
