/**
 * The programme's payloads (projects, members, surveys, missions, mission groups, taking part):
 * the zod schemas the server checks bodies and queries with and the browser's forms use, so the
 * messages are the same on both sides. Constants and answer types: `../programme.ts`.
 */
import { z } from '../zod.ts';
import { answersSchema } from '../forms/definition.ts';
import { EMAIL_MAX_LENGTH } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import {
  ACTIVITY_STATUSES,
  ENTRY_STATUSES,
  GROUP_UNLOCK_ON,
  GROUP_UNLOCKS,
  PROGRAMME_LIMITS,
  PROJECT_STATUSES,
  RESPONSE_EXPORT_STATUSES,
  RESPONSE_STATUSES,
  REVIEW_MODES,
  SURVEY_KINDS,
} from '../programme.ts';

const L = PROGRAMME_LIMITS;

/** Required text; not aborting, so the cross-field checks below still run (an empty text cannot be too long anyway). */
const requiredText = (max: number) => z.string({ error: MESSAGES.required }).trim().min(1, { error: MESSAGES.required }).max(max, MESSAGES.tooLong);
const optionalText = (max: number) => z.string({ error: 'Must be text' }).trim().max(max, MESSAGES.tooLong);
const enumOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: MESSAGES.invalidEnumValue });

/** A whole number of points, 0 or more. */
const pointsSchema = z.number({ error: MESSAGES.required }).int('Enter a whole number').min(0, 'Enter 0 or more').max(L.pointsMax, `At most ${L.pointsMax}`);
/** A calendar date `YYYY-MM-DD`, or null. */
const dateSchema = z.iso.date({ error: 'Enter a date (YYYY-MM-DD)' }).nullable();
/** A moment (ISO 8601 with a time zone offset, e.g. `2026-12-01T09:00:00Z`), or null. */
const momentSchema = z.iso.datetime({ offset: true, error: 'Enter a date and time' }).nullable();
const id = z.number({ error: MESSAGES.required }).int().min(1).max(2_147_483_647);

/**
 * Cross-field checks run even when some fields already failed (as long as the body is an object),
 * so a form shows every problem at once instead of in rounds; they only read what they compare.
 */
const everyObject = { when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null };

/** `closesAt` after `opensAt`, when both are set; reported on `closesAt`. */
function datesInOrder<T extends { opensAt?: string | null; closesAt?: string | null }>(value: T, ctx: z.RefinementCtx): void {
  if (value.opensAt && value.closesAt && Date.parse(value.closesAt) <= Date.parse(value.opensAt)) {
    ctx.addIssue({ code: 'custom', path: ['closesAt'], message: 'Must be after the opening time' });
  }
}

// ---------------------------------------------------------------------------------------------
// Projects

const projectFields = {
  name: requiredText(L.nameMax),
  client: optionalText(L.clientMax),
  description: optionalText(L.descriptionMax),
  status: enumOf(PROJECT_STATUSES),
  startsAt: dateSchema,
  endsAt: dateSchema,
};

function projectDatesInOrder(value: { startsAt?: string | null; endsAt?: string | null }, ctx: z.RefinementCtx): void {
  if (value.startsAt && value.endsAt && value.endsAt < value.startsAt)
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'Must be on or after the start date' });
}

/** `POST /api/admin/projects`. */
export const projectCreateSchema = z
  .strictObject({
    name: projectFields.name,
    client: projectFields.client.default(''),
    description: projectFields.description.default(''),
    status: projectFields.status.default('draft'),
    startsAt: projectFields.startsAt.default(null),
    endsAt: projectFields.endsAt.default(null),
  })
  .superRefine(projectDatesInOrder, everyObject);
export type ProjectCreateInput = z.input<typeof projectCreateSchema>;

/** `PATCH /api/admin/projects/{id}`: any of the fields. */
export const projectPatchSchema = z.strictObject(projectFields).partial().superRefine(projectDatesInOrder, everyObject);
export type ProjectPatchInput = z.input<typeof projectPatchSchema>;

export const projectListQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  status: enumOf(PROJECT_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

/** `POST /api/admin/projects/{id}/members`: addresses as pasted or read from a CSV; unknown ones are listed (and invited with `invite`). */
export const addMembersSchema = z.strictObject({
  emails: z
    .array(z.string().max(EMAIL_MAX_LENGTH, MESSAGES.tooLong), { error: MESSAGES.required })
    .min(1, MESSAGES.required)
    .max(L.membersPerCall, `At most ${L.membersPerCall} addresses at a time`),
  invite: z.boolean().optional(),
});
export type AddMembersInput = z.input<typeof addMembersSchema>;

export const memberListQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

// ---------------------------------------------------------------------------------------------
// Surveys

const surveyFields = {
  title: requiredText(L.titleMax),
  description: optionalText(L.descriptionMax),
  kind: enumOf(SURVEY_KINDS),
  formId: id.nullable(),
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
};

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
  })
  .superRefine(surveyKindFields, everyObject)
  .superRefine(datesInOrder, everyObject);
export type SurveyCreateInput = z.input<typeof surveyCreateSchema>;

/** `PATCH /api/admin/surveys/{id}`: any field; PATCH `formVersion` to move to a newer version (answers keep theirs). */
export const surveyPatchSchema = z.strictObject(surveyFields).partial().superRefine(datesInOrder, everyObject);
export type SurveyPatchInput = z.input<typeof surveyPatchSchema>;

// ---------------------------------------------------------------------------------------------
// Missions

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

const missionFields = {
  title: requiredText(L.titleMax),
  instructions: optionalText(L.instructionsMax),
  formId: id,
  formVersion: z.number().int().min(1).nullable(),
  points: pointsSchema,
  opensAt: momentSchema,
  closesAt: momentSchema,
  review: enumOf(REVIEW_MODES),
  entries: entriesSchema,
  status: enumOf(ACTIVITY_STATUSES),
};

/** `POST /api/admin/projects/{id}/missions`. */
export const missionCreateSchema = z
  .strictObject({
    title: missionFields.title,
    instructions: missionFields.instructions.default(''),
    formId: missionFields.formId,
    formVersion: missionFields.formVersion.optional(),
    points: missionFields.points.default(0),
    opensAt: missionFields.opensAt.default(null),
    closesAt: missionFields.closesAt.default(null),
    review: missionFields.review.default('manual'),
    entries: missionFields.entries.default({ min: 1, max: 1, perDay: null }),
    status: missionFields.status.default('draft'),
  })
  .superRefine(datesInOrder, everyObject);
export type MissionCreateInput = z.input<typeof missionCreateSchema>;

/** `PATCH /api/admin/missions/{id}`. */
export const missionPatchSchema = z.strictObject(missionFields).partial().superRefine(datesInOrder, everyObject);
export type MissionPatchInput = z.input<typeof missionPatchSchema>;

// ---------------------------------------------------------------------------------------------
// Mission groups

const groupFields = {
  title: requiredText(L.titleMax),
  description: optionalText(L.descriptionMax),
  missionIds: z
    .array(id, { error: MESSAGES.required })
    .max(200, 'At most 200 missions')
    .refine((ids) => new Set(ids).size === ids.length, 'A mission can be in the list once'),
  unlock: enumOf(GROUP_UNLOCKS),
  unlockOn: enumOf(GROUP_UNLOCK_ON),
};

/** `POST /api/admin/projects/{id}/mission-groups`. */
export const missionGroupCreateSchema = z.strictObject({
  title: groupFields.title,
  description: groupFields.description.default(''),
  missionIds: groupFields.missionIds,
  unlock: groupFields.unlock.default('all_open'),
  unlockOn: groupFields.unlockOn.default('submitted'),
});
export type MissionGroupCreateInput = z.input<typeof missionGroupCreateSchema>;

/** `PATCH /api/admin/mission-groups/{id}`. */
export const missionGroupPatchSchema = z.strictObject(groupFields).partial();
export type MissionGroupPatchInput = z.input<typeof missionGroupPatchSchema>;

// ---------------------------------------------------------------------------------------------
// Admin lists of answers

export const responseListQuerySchema = z.object({
  status: enumOf(RESPONSE_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

/** `GET /api/admin/surveys/{id}/responses.csv?status=`: submitted responses (default), drafts, or all. */
export const responseExportQuerySchema = z.object({
  status: enumOf(RESPONSE_EXPORT_STATUSES).default('submitted'),
});

export const submissionListQuerySchema = z.object({
  status: enumOf(ENTRY_STATUSES).optional(),
  /** Participant's name or email contains. */
  q: z.string().trim().max(200).optional(),
  /** Submitted (or created, for drafts) on or after / before, `YYYY-MM-DD`. */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

// ---------------------------------------------------------------------------------------------
// Taking part

const pageIdSchema = z.string().max(64).nullable();

/** The 400 on `revision` when a save leaves it out although the answers were saved before. */
export const REVISION_REQUIRED_MESSAGE = 'Required: send the revision your answers are based on (0 before the first save); reload to get it';

/**
 * The revision a save or submit is based on: the one the client last saw (`GET`, or the answer of
 * its last save; 0 before the first save). A stale one is 409 `conflict` with the current answers.
 */
const revisionSchema = z
  .number({ error: 'Send the revision as a whole number' })
  .int('Send the revision as a whole number')
  .min(0, 'Send 0 or more')
  .max(2_147_483_647, 'Too large');

/**
 * `PUT /api/surveys/{id}/response`: autosave of a native survey's answers and the page reached.
 * `revision` may be left out only while no response exists (`docs/api.md`, "Taking part").
 */
export const responseSaveSchema = z.strictObject({ answers: answersSchema, pageId: pageIdSchema, revision: revisionSchema.optional() });
/**
 * `POST /api/surveys/{id}/response/submit`. `today` (optional): the participant's calendar day,
 * for date questions bounded by "today"; the server uses it only when it is within one day of its
 * own UTC date, else its own. `revision` (optional): when given, a stale one is 409 `conflict`.
 */
export const responseSubmitSchema = z.strictObject({ answers: answersSchema, today: z.iso.date().optional(), revision: revisionSchema.optional() });

/** `POST /api/missions/{id}/entries`: the browser's IANA time zone (the diary's calendar day); UTC when absent. */
export const entryCreateSchema = z.strictObject({ timeZone: z.string().max(L.timeZoneMax).optional() });
/** `PUT /api/missions/{id}/entries/{entryId}`: `revision` may be left out only while the entry was never saved. */
export const entrySaveSchema = z.strictObject({ answers: answersSchema, revision: revisionSchema.optional() });
/** `POST /api/missions/{id}/entries/{entryId}/submit`: `{}`, or the answers to save first; `revision` (optional): when given, a stale one is 409 `conflict`. */
export const entrySubmitSchema = z.strictObject({ answers: answersSchema.optional(), revision: revisionSchema.optional() });

/** `GET /api/surveys/return?pid=&status=`. */
export const externalReturnQuerySchema = z.object({
  pid: z.string().min(1).max(200),
  status: z.string().max(50),
});
