/**
 * The form definition format `fieldwork.form/1`: the one source for the browser (builder,
 * renderer), the server (drafts, publishing, answers) and the CLI.
 *
 * Two levels of checking:
 * - `formDraftSchema`: "well-formed" — the JSON has the shape of a form (a title, pages with ids
 *   and elements, each element an object with a string id, type and title). A draft that passes
 *   it is always saved, even while it fails the publish-time checks: work in progress is never
 *   lost.
 * - `formDefinitionSchema` (+ `checkForPublish` in ./publish.ts): every element of a known type
 *   with settings of the right types, no unknown keys, and the cross-element rules (unique ids,
 *   conditions on earlier elements only, min ≤ max, …). Publishing needs both.
 *
 * Answers are an object keyed by element id; choices are option ids, never labels.
 */
import { z } from '../zod.ts';
import {
  CONDITION_OPS,
  DATE_BOUND_PATTERN,
  ELEMENT_ID_PATTERN,
  FORM_LIMITS,
  FORM_SCHEMA_ID,
  OPTION_ID_PATTERN,
  OPTION_ORDERS,
  PHOTO_CAPTURE,
  RATING_ICONS,
  SCALE_PRESETS,
  SHORT_TEXT_FORMATS,
} from './constants.ts';
import type { ConditionOp, ElementType } from './constants.ts';
import { LANGUAGES } from '../languages.ts';

// The constants and zod-free helpers (FORM_SCHEMA_ID, ELEMENT_TYPES, FORM_LIMITS, allElements, …)
// live in ./constants.ts so the browser's renderer can use them without zod; this module
// re-exports them and stays the one entry to the format.
export * from './constants.ts';

// ---------------------------------------------------------------------------------------------
// Conditions

export type ConditionValue = string | number | boolean | (string | number)[];

export type Condition = { all: Condition[] } | { any: Condition[] } | { not: Condition } | { ref: string; op: ConditionOp; value?: ConditionValue };

const conditionValueSchema = z.union([
  z.string().max(1000),
  z.number(),
  z.boolean(),
  z.array(z.union([z.string().max(1000), z.number()])).max(FORM_LIMITS.maxOptions),
]);

export const conditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    z.strictObject({ all: z.array(conditionSchema).max(50) }),
    z.strictObject({ any: z.array(conditionSchema).max(50) }),
    z.strictObject({ not: conditionSchema }),
    z.strictObject({ ref: z.string(), op: z.enum(CONDITION_OPS), value: conditionValueSchema.optional() }),
  ]),
);

// ---------------------------------------------------------------------------------------------
// Elements (strict: the publish-time shape)

const idSchema = z.string().regex(ELEMENT_ID_PATTERN, 'Use a lower-case letter, then lower-case letters, digits or _ (64 at most)');
const optionIdSchema = z.string().regex(OPTION_ID_PATTERN, 'Use lower-case letters, digits or _ (64 at most)');
const text = (max: number) => z.string().max(max, 'Too long');
const count = () => z.number().int().min(0);

export const optionSchema = z.strictObject({ id: optionIdSchema, label: text(FORM_LIMITS.optionLabelMax) });
export type FormOption = z.infer<typeof optionSchema>;

const base = {
  id: idSchema,
  title: text(FORM_LIMITS.titleMax),
  description: text(FORM_LIMITS.descriptionMax).optional(),
  required: z.boolean().optional(),
  visibleIf: conditionSchema.nullable().optional(),
};

const options = z.array(optionSchema).max(FORM_LIMITS.maxOptions);

export const shortTextSchema = z.strictObject({
  ...base,
  type: z.literal('short_text'),
  format: z.enum(SHORT_TEXT_FORMATS).optional(),
  minLength: count().optional(),
  maxLength: count().max(FORM_LIMITS.shortTextHardMax).optional(),
  placeholder: text(FORM_LIMITS.optionLabelMax).optional(),
});

export const longTextSchema = z.strictObject({
  ...base,
  type: z.literal('long_text'),
  minLength: count().optional(),
  maxLength: count().max(FORM_LIMITS.longTextHardMax).optional(),
  placeholder: text(FORM_LIMITS.optionLabelMax).optional(),
});

export const singleChoiceSchema = z.strictObject({
  ...base,
  type: z.literal('single_choice'),
  options,
  optionOrder: z.enum(OPTION_ORDERS).optional(),
  allowOther: z.boolean().optional(),
});

export const multipleChoiceSchema = z.strictObject({
  ...base,
  type: z.literal('multiple_choice'),
  options,
  optionOrder: z.enum(OPTION_ORDERS).optional(),
  allowOther: z.boolean().optional(),
  minSelected: count().optional(),
  maxSelected: count().optional(),
  /** Option ids that clear every other choice (e.g. "None of these"). */
  exclusive: z.array(optionIdSchema).max(FORM_LIMITS.maxOptions).optional(),
});

export const dropdownSchema = z.strictObject({
  ...base,
  type: z.literal('dropdown'),
  options,
  searchable: z.boolean().optional(),
});

export const ratingSchema = z.strictObject({
  ...base,
  type: z.literal('rating'),
  max: z.number().int().min(FORM_LIMITS.ratingMin).max(FORM_LIMITS.ratingMax),
  icon: z.enum(RATING_ICONS).optional(),
});

export const scaleSchema = z.strictObject({
  ...base,
  type: z.literal('scale'),
  min: z.number(),
  max: z.number(),
  step: z.number().positive().optional(),
  minLabel: text(FORM_LIMITS.optionLabelMax).optional(),
  maxLabel: text(FORM_LIMITS.optionLabelMax).optional(),
  preset: z.enum(SCALE_PRESETS).optional(),
});

export const numberSchema = z.strictObject({
  ...base,
  type: z.literal('number'),
  min: z.number().optional(),
  max: z.number().optional(),
  integer: z.boolean().optional(),
  unit: text(50).optional(),
});

export const dateSchema = z.strictObject({
  ...base,
  type: z.literal('date'),
  minDate: z.string().regex(DATE_BOUND_PATTERN, 'Use YYYY-MM-DD or "today"').optional(),
  maxDate: z.string().regex(DATE_BOUND_PATTERN, 'Use YYYY-MM-DD or "today"').optional(),
});

export const photoSchema = z.strictObject({
  ...base,
  type: z.literal('photo'),
  minFiles: count().max(FORM_LIMITS.photoMaxFiles).optional(),
  maxFiles: z.number().int().min(1).max(FORM_LIMITS.photoMaxFiles),
  capture: z.enum(PHOTO_CAPTURE).optional(),
});

/** A video answer: from the camera, the library or recorded in the page; each at most `maxSeconds` long. */
export const videoSchema = z.strictObject({
  ...base,
  type: z.literal('video'),
  minFiles: count().max(FORM_LIMITS.videoMaxFiles).optional(),
  maxFiles: z.number().int().min(1).max(FORM_LIMITS.videoMaxFiles),
  maxSeconds: z.number().int().min(1).max(FORM_LIMITS.videoMaxSeconds),
  capture: z.enum(PHOTO_CAPTURE).optional(),
});

export const consentSchema = z.strictObject({
  ...base,
  type: z.literal('consent'),
  statement: text(FORM_LIMITS.descriptionMax),
});

export const matrixSchema = z.strictObject({
  ...base,
  type: z.literal('matrix'),
  rows: z.array(optionSchema).max(FORM_LIMITS.maxMatrixRows),
  columns: z.array(optionSchema).max(FORM_LIMITS.maxMatrixColumns),
  multiple: z.boolean().optional(),
  allRowsRequired: z.boolean().optional(),
});

export const rankingSchema = z.strictObject({
  ...base,
  type: z.literal('ranking'),
  options,
  rankAll: z.boolean().optional(),
});

export const statementSchema = z.strictObject({
  ...base,
  type: z.literal('statement'),
  body: text(FORM_LIMITS.descriptionMax),
});

export const formElementSchema = z.discriminatedUnion('type', [
  shortTextSchema,
  longTextSchema,
  singleChoiceSchema,
  multipleChoiceSchema,
  dropdownSchema,
  ratingSchema,
  scaleSchema,
  numberSchema,
  dateSchema,
  photoSchema,
  videoSchema,
  consentSchema,
  matrixSchema,
  rankingSchema,
  statementSchema,
]);

export type FormElement = z.infer<typeof formElementSchema>;
export type ElementOf<T extends ElementType> = Extract<FormElement, { type: T }>;
/** Elements whose answers are option ids. */
export type ChoiceElement = ElementOf<'single_choice' | 'multiple_choice' | 'dropdown' | 'ranking'>;

/** Per text key (./translations.ts), per language code: a text. Unknown keys and languages are reported by `translationProblems`. */
const translationMapSchema = z.record(z.string().max(300), z.record(z.string().max(8), text(FORM_LIMITS.descriptionMax)));

export const formPageSchema = z.strictObject({
  id: idSchema,
  title: text(FORM_LIMITS.titleMax).optional(),
  description: text(FORM_LIMITS.descriptionMax).optional(),
  visibleIf: conditionSchema.nullable().optional(),
  elements: z.array(formElementSchema).max(FORM_LIMITS.maxElements),
});
export type FormPage = z.infer<typeof formPageSchema>;

/** A complete definition of known element types with well-typed settings (publish-time shape). */
export const formDefinitionSchema = z.strictObject({
  schema: z.literal(FORM_SCHEMA_ID),
  title: text(FORM_LIMITS.titleMax),
  description: text(FORM_LIMITS.descriptionMax).optional(),
  pages: z.array(formPageSchema).min(1, 'Add at least one page').max(FORM_LIMITS.maxPages),
  // Content in several languages (./translations.ts): the source language, the languages offered
  // (the source first), per text key a map from language code to text, the fingerprints of the
  // sources translated, and the fallback a publish with missing translations chose.
  language: z.enum(LANGUAGES).optional(),
  languages: z.array(z.enum(LANGUAGES)).max(LANGUAGES.length).optional(),
  translations: translationMapSchema.optional(),
  translatedFrom: translationMapSchema.optional(),
  fallback: z.literal('source').optional(),
});
export type FormDefinition = z.infer<typeof formDefinitionSchema>;

// ---------------------------------------------------------------------------------------------
// Drafts (well-formed: the shape of a form, whatever its elements' settings)

/** An element as a draft holds it: an object with string id, type and title; any other keys. */
export const draftElementSchema = z.looseObject({
  id: z.string().max(FORM_LIMITS.draftIdMax),
  type: z.string().max(100),
  title: z.string().max(FORM_LIMITS.titleMax * 4),
});
export type DraftElement = z.infer<typeof draftElementSchema>;

export const draftPageSchema = z.looseObject({
  id: z.string().max(FORM_LIMITS.draftIdMax),
  title: z
    .string()
    .max(FORM_LIMITS.titleMax * 4)
    .optional(),
  elements: z.array(draftElementSchema).max(FORM_LIMITS.maxElements),
});

/** What a draft must be to be saved. */
export const formDraftSchema = z.looseObject({
  schema: z.literal(FORM_SCHEMA_ID),
  title: z.string().max(FORM_LIMITS.titleMax * 4),
  pages: z.array(draftPageSchema).max(FORM_LIMITS.maxPages),
});
export type FormDraft = z.infer<typeof formDraftSchema>;

/** A new form's first draft: one empty page. */
export function emptyDefinition(title: string): FormDefinition {
  return { schema: FORM_SCHEMA_ID, title, pages: [{ id: 'page_1', title: '', elements: [] }] };
}

// ---------------------------------------------------------------------------------------------
// Answers

/** The "Other" choice with its text. */
export interface OtherAnswer {
  other: string;
}
/** One element's answer, by type (each type's answer is described in `json-schema.ts`): text, option id(s), numbers, dates, media ids, `true`, a matrix row map. */
export type AnswerValue = string | number | boolean | OtherAnswer | (string | OtherAnswer)[] | Record<string, string | string[]>;
/** Answers keyed by element id. */
export type Answers = Record<string, AnswerValue>;

export const otherAnswerSchema = z.strictObject({ other: z.string().max(FORM_LIMITS.otherTextMax) });
/** Any answer value (types are checked per element by the validator). */
export const answerValueSchema: z.ZodType<AnswerValue> = z.union([
  z.string().max(FORM_LIMITS.longTextHardMax),
  z.number(),
  z.boolean(),
  otherAnswerSchema,
  z.array(z.union([z.string().max(200), otherAnswerSchema])).max(FORM_LIMITS.maxOptions),
  z.record(z.string().max(200), z.union([z.string().max(200), z.array(z.string().max(200)).max(FORM_LIMITS.maxMatrixColumns)])),
]);
/** An answers object as a client sends it: keyed by element-id-shaped keys. */
export const answersSchema = z.record(z.string().max(200), answerValueSchema);
