/** Surveys' payloads (zod): admin bodies and queries, and taking part (native responses, external returns). Constants and answer types: `../surveys.ts`. */
import { z } from '../zod.ts';
import { listQuerySchema } from '../list.ts';
import { answersSchema } from '../forms/definition.ts';
import { MESSAGES } from '../messages.ts';
import { ACTIVITY_STATUSES, PROGRAMME_LIMITS } from '../projects.ts';
import { RESPONSE_EXPORT_STATUSES, RESPONSE_STATUSES, SURVEY_KINDS } from '../surveys.ts';
import { answerLanguageFilterSchema, answerLanguageSchema, revisionSchema } from './answers.ts';
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

const surveyFields = {
  title: requiredText(L.titleMax),
  description: optionalText(L.descriptionMax),
  kind: enumOf(SURVEY_KINDS),
  formId: idSchema.nullable(),
  formVersion: z.number().int().min(1).nullable(),
  externalUrl: z
    .string()
    .trim()
    .max(L.urlMax, MESSAGES.tooLong)
    .refine((value) => /^https:\/\/[^\s/]+\.[^\s]+$/i.test(value), 'Enter the survey’s https:// link')
    .nullable(),
  trustReturns: z.boolean(),
  points: pointsSchema,
  estimatedMinutes: z.number().int('Enter a whole number').min(1, 'At least 1').max(L.estimatedMinutesMax, `At most ${L.estimatedMinutesMax}`).nullable(),
  opensAt: momentSchema,
  closesAt: momentSchema,
  status: enumOf(ACTIVITY_STATUSES),
  /** The title's and description's translations (decision 035): `{ "title": { "de": "…" } }`. */
  translations: itemTranslationsSchema({ title: L.titleMax, description: L.descriptionMax }),
};

/** No translation of a text empty as written (`translations`' field message). */
const surveyTranslationsWritten = translatedTextsWritten(['title', 'description']);

function surveyKindFields(value: { kind?: string; formId?: number | null; externalUrl?: string | null }, ctx: z.RefinementCtx): void {
  if (value.kind === 'native' && !value.formId) ctx.addIssue({ code: 'custom', path: ['formId'], message: 'Choose a form' });
  if (value.kind === 'external' && !value.externalUrl) ctx.addIssue({ code: 'custom', path: ['externalUrl'], message: 'Enter the survey’s https:// link' });
}

/** `POST /api/admin/projects/{id}/surveys`. `formVersion` defaults to the form's latest published version. */
export const surveyCreateSchema = z
  .strictObject({
    title: surveyFields.title,
    description: surveyFields.description.default(''),
    kind: surveyFields.kind,
    formId: surveyFields.formId.optional(),
    formVersion: surveyFields.formVersion.optional(),
    externalUrl: surveyFields.externalUrl.optional(),
    trustReturns: surveyFields.trustReturns.default(false),
    points: surveyFields.points.default(0),
    estimatedMinutes: surveyFields.estimatedMinutes.default(null),
    opensAt: surveyFields.opensAt.default(null),
    closesAt: surveyFields.closesAt.default(null),
    status: surveyFields.status.default('draft'),
    translations: surveyFields.translations.default({}),
  })
  .superRefine(surveyKindFields, everyObject)
  .superRefine(datesInOrder, everyObject)
  .superRefine(surveyTranslationsWritten, everyObject);
export type SurveyCreateInput = z.input<typeof surveyCreateSchema>;

/** `PATCH /api/admin/surveys/{id}`: any field; PATCH `formVersion` to move to a newer version (answers keep theirs). */
export const surveyPatchSchema = z
  .strictObject(surveyFields)
  .partial()
  .superRefine(datesInOrder, everyObject)
  .superRefine(surveyTranslationsWritten, everyObject);
export type SurveyPatchInput = z.input<typeof surveyPatchSchema>;

// Admin lists of responses

/**
 * `GET /api/admin/surveys/{id}/responses?status=&language=&q=&page=&pageSize=&sort=&dir=` (the list contract,
 * `../list.ts`): `latest` puts submitted responses first, then drafts, each latest first.
 */
export const RESPONSE_LIST_SORTS = ['latest', 'started', 'name'] as const;
export const responseListQuerySchema = listQuerySchema(RESPONSE_LIST_SORTS).extend({
  status: enumOf(RESPONSE_STATUSES).optional(),
  /** Only responses answered in this language (decision 035). */
  language: answerLanguageFilterSchema.optional(),
});

/** `GET /api/admin/surveys/{id}/responses.csv?status=&language=`: submitted responses (default), drafts, or all; of one language or all. */
export const responseExportQuerySchema = z.object({
  status: enumOf(RESPONSE_EXPORT_STATUSES).default('submitted'),
  /** Only responses answered in this language (decision 035). */
  language: answerLanguageFilterSchema.optional(),
});

/** `GET /api/admin/surveys/{id}/results?language=`: the results of the responses answered in one language, or of all. */
export const surveyResultsQuerySchema = z.object({
  language: answerLanguageFilterSchema.optional(),
});

// Taking part

const pageIdSchema = z.string().max(64).nullable();

/**
 * `PUT /api/surveys/{id}/response`: autosave of a native survey's answers and the page reached.
 * `revision` may be left out only while no response exists (`docs/api.md`, "Taking part").
 */
export const responseSaveSchema = z.strictObject({
  answers: answersSchema,
  pageId: pageIdSchema,
  revision: revisionSchema.optional(),
  language: answerLanguageSchema.optional(),
});
/**
 * `POST /api/surveys/{id}/response/submit`. `today` (optional): the participant's calendar day,
 * for date questions bounded by "today"; the server uses it only when it is within one day of its
 * own UTC date, else its own. `revision` (optional): when given, a stale one is 409 `conflict`.
 */
export const responseSubmitSchema = z.strictObject({
  answers: answersSchema,
  today: z.iso.date().optional(),
  revision: revisionSchema.optional(),
  language: answerLanguageSchema.optional(),
});

/** `GET /api/surveys/return?pid=&status=`. */
export const externalReturnQuerySchema = z.object({
  pid: z.string().min(1).max(200),
  status: z.string().max(50),
});
