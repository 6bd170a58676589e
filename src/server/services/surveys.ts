/**
 * Surveys for moderators and admins: a project's list, create, one survey, update. Native
 * surveys pin a published form version (new responses are given it; a response keeps the
 * version it started on); external ones carry an Alchemer link, a `return_key` the return
 * links' keys derive from, and show those links and the webhook to set up in Alchemer
 * (`docs/alchemer.md`). The counts (members, started, submitted) are computed for a whole list in a
 * few grouped queries. The form checks (`resolveFormChoice`) are shared with missions.
 */
import { and, asc, count, countDistinct, eq, inArray, max, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { ITEM_TEXT_FIELDS, type ActivityCounts } from '../../shared/projects.ts';
import type { AdminSurvey } from '../../shared/surveys.ts';
import type { surveyCreateSchema, surveyPatchSchema } from '../../shared/schemas/surveys.ts';
import type { Db } from '../db/index.ts';
import { preparedFor } from '../db/prepared.ts';
import { formVersions, forms, projectMembers, surveyExternalRefs, surveyResponses, surveys, type Survey } from '../db/schema/index.ts';
import { ApiError, foundOr404 } from '../errors.ts';
import type { Clock } from './clock.ts';
import { ensureReturnKey, newReturnKey, replaceWebhookSecret, returnLinks, webhookOf } from './external-surveys.ts';
import { authoredColumns, checkTranslationsWritten, copyDefined, fieldError, insertedRow, iso } from './projects.ts';

export type SurveyCreate = z.output<typeof surveyCreateSchema>;
export type SurveyPatch = z.output<typeof surveyPatchSchema>;

export const FORM_CHOICE_MESSAGES = {
  chooseForm: 'Choose a form',
  formArchived: 'This form is archived: restore it or choose another',
  formUnpublished: 'This form has no published version yet: publish it first',
  noSuchVersion: 'This form has no such published version',
} as const;

/** The highest published version of each form. */
export async function latestFormVersions(db: Db, formIds: readonly (number | null)[]): Promise<Map<number, number>> {
  const ids = [...new Set(formIds.filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ formId: formVersions.formId, version: max(formVersions.version) })
    .from(formVersions)
    .where(inArray(formVersions.formId, ids))
    .groupBy(formVersions.formId);
  return new Map(rows.flatMap((row) => (row.version === null ? [] : [[row.formId, row.version] as const])));
}

/** True when the form has this published version. */
export async function formVersionExists(db: Db, formId: number, version: number): Promise<boolean> {
  const [row] = await db
    .select({ version: formVersions.version })
    .from(formVersions)
    .where(and(eq(formVersions.formId, formId), eq(formVersions.version, version)))
    .limit(1);
  return row !== undefined;
}

/**
 * The form and version a native survey or a mission is to use: the form must exist, not be
 * archived and have a published version; `version` defaults to the latest published one and must
 * exist. 400 on `formId` / `formVersion` otherwise.
 */
export async function resolveFormChoice(
  db: Db,
  formId: number | null | undefined,
  version: number | null | undefined,
): Promise<{ formId: number; version: number }> {
  if (!formId) throw fieldError('formId', FORM_CHOICE_MESSAGES.chooseForm);
  const [form] = await db.select({ id: forms.id, status: forms.status }).from(forms).where(eq(forms.id, formId)).limit(1);
  if (!form) throw fieldError('formId', FORM_CHOICE_MESSAGES.chooseForm);
  if (form.status === 'archived') throw fieldError('formId', FORM_CHOICE_MESSAGES.formArchived);
  const latest = (await latestFormVersions(db, [formId])).get(formId);
  if (latest === undefined) throw fieldError('formId', FORM_CHOICE_MESSAGES.formUnpublished);
  if (version === null || version === undefined) return { formId, version: latest };
  if (!(await formVersionExists(db, formId, version))) throw fieldError('formVersion', FORM_CHOICE_MESSAGES.noSuchVersion);
  return { formId, version };
}

/**
 * A published version of the form for a patch that keeps the form: the one asked for, or the
 * latest when `version` is null. 400 on `formId` / `formVersion` otherwise.
 */
export async function resolveFormVersion(db: Db, formId: number, version: number | null): Promise<number> {
  const chosen = version ?? (await latestFormVersions(db, [formId])).get(formId);
  if (chosen === undefined) throw fieldError('formId', FORM_CHOICE_MESSAGES.formUnpublished);
  if (!(await formVersionExists(db, formId, chosen))) throw fieldError('formVersion', FORM_CHOICE_MESSAGES.noSuchVersion);
  return chosen;
}

/** Checks `closesAt` after `opensAt` once the patch is applied. */
export function checkMoments(opensAt: Date | null, closesAt: Date | null): void {
  if (opensAt && closesAt && closesAt.getTime() <= opensAt.getTime()) throw fieldError('closesAt', 'Must be after the opening time');
}

export const toDate = (value: string | null): Date | null => (value === null ? null : new Date(value));

/** The opening and closing moments once the patch is applied (`checkMoments`), for a survey or a mission. */
export function patchedMoments(
  before: { opensAt: Date | null; closesAt: Date | null },
  patch: { opensAt?: string | null; closesAt?: string | null },
): { opensAt: Date | null; closesAt: Date | null } {
  const opensAt = patch.opensAt === undefined ? before.opensAt : toDate(patch.opensAt);
  const closesAt = patch.closesAt === undefined ? before.closesAt : toDate(patch.closesAt);
  checkMoments(opensAt, closesAt);
  return { opensAt, closesAt };
}

/** Members of each project. */
export async function memberCounts(db: Db, projectIds: readonly number[]): Promise<Map<number, number>> {
  const ids = [...new Set(projectIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ projectId: projectMembers.projectId, n: count() })
    .from(projectMembers)
    .where(inArray(projectMembers.projectId, ids))
    .groupBy(projectMembers.projectId);
  return new Map(rows.map((row) => [row.projectId, row.n]));
}

/**
 * Members, started and submitted for each survey, counting current members only: started = a
 * response (any status) or an external start; submitted = a submitted response or an external
 * return with outcome `complete` (distinct participants). Three grouped queries for any number of surveys.
 */
export async function surveyCounts(db: Db, rows: readonly Pick<Survey, 'id' | 'projectId'>[]): Promise<Map<number, ActivityCounts>> {
  const ids = rows.map((row) => row.id);
  const out = new Map<number, ActivityCounts>();
  if (ids.length === 0) return out;
  const memberOf = (userId: typeof surveyResponses.userId | typeof surveyExternalRefs.userId) =>
    and(eq(projectMembers.projectId, surveys.projectId), eq(projectMembers.userId, userId));
  const [members, native, external] = await Promise.all([
    memberCounts(
      db,
      rows.map((row) => row.projectId),
    ),
    db
      .select({
        id: surveyResponses.surveyId,
        started: count(),
        submitted: sql<number>`(count(*) filter (where ${surveyResponses.status} = 'submitted'))::int`.mapWith(Number),
      })
      .from(surveyResponses)
      .innerJoin(surveys, eq(surveys.id, surveyResponses.surveyId))
      .innerJoin(projectMembers, memberOf(surveyResponses.userId))
      .where(inArray(surveyResponses.surveyId, ids))
      .groupBy(surveyResponses.surveyId),
    db
      .select({
        id: surveyExternalRefs.surveyId,
        started: countDistinct(surveyExternalRefs.userId),
        submitted: sql<number>`(count(distinct ${surveyExternalRefs.userId}) filter (where ${surveyExternalRefs.outcome} = 'complete'))::int`.mapWith(Number),
      })
      .from(surveyExternalRefs)
      .innerJoin(surveys, eq(surveys.id, surveyExternalRefs.surveyId))
      .innerJoin(projectMembers, memberOf(surveyExternalRefs.userId))
      .where(inArray(surveyExternalRefs.surveyId, ids))
      .groupBy(surveyExternalRefs.surveyId),
  ]);
  for (const row of rows) out.set(row.id, { members: members.get(row.projectId) ?? 0, started: 0, submitted: 0 });
  for (const row of [...native, ...external]) {
    const counts = out.get(row.id);
    if (!counts) continue;
    counts.started += row.started;
    counts.submitted += row.submitted;
  }
  return out;
}

/**
 * What the admin views of surveys or missions add to their rows: each one's counts (`countsOf`)
 * and the latest published version of each form, in grouped queries.
 */
export async function countsAndLatestForms<Row extends { formId: number | null }>(
  db: Db,
  rows: readonly Row[],
  countsOf: (db: Db, rows: readonly Row[]) => Promise<Map<number, ActivityCounts>>,
): Promise<{ counts: Map<number, ActivityCounts>; latest: Map<number, number> }> {
  const [counts, latest] = await Promise.all([
    countsOf(db, rows),
    latestFormVersions(
      db,
      rows.map((row) => row.formId),
    ),
  ]);
  return { counts, latest };
}

/** A survey's link, points, schedule and status, as its admin view and audit rows show them. */
const surveyRules = (row: Survey) => ({
  externalUrl: row.externalUrl,
  trustReturns: row.trustReturns,
  points: row.points,
  estimatedMinutes: row.estimatedMinutes,
  opensAt: iso(row.opensAt),
  closesAt: iso(row.closesAt),
  status: row.status,
});

/** The admin view of these surveys (counts and latest form versions in grouped queries). */
export async function surveyViews(db: Db, publicUrl: string, rows: readonly Survey[]): Promise<AdminSurvey[]> {
  // Every external survey has its return key (made with it, or by the migration); one made some
  // other way gets it here, so its links never change once shown.
  const keys = new Map<number, string>();
  for (const row of rows) if (row.kind === 'external') keys.set(row.id, await ensureReturnKey(db, row));
  const { counts, latest } = await countsAndLatestForms(db, rows, surveyCounts);
  return rows.map((row) => ({
    id: row.id,
    projectId: row.projectId,
    title: row.title,
    description: row.description,
    translations: row.translations,
    kind: row.kind,
    formId: row.formId,
    formVersion: row.formVersion,
    latestFormVersion: row.formId === null ? null : (latest.get(row.formId) ?? null),
    ...surveyRules(row),
    counts: counts.get(row.id) ?? { members: 0, started: 0, submitted: 0 },
    returnLinks: row.kind === 'external' ? returnLinks(publicUrl, keys.get(row.id) ?? '') : null,
    webhook: row.kind === 'external' ? webhookOf(publicUrl, row) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

export async function surveyView(db: Db, publicUrl: string, row: Survey): Promise<AdminSurvey> {
  const [view] = await surveyViews(db, publicUrl, [row]);
  if (!view) throw new Error('no view');
  return view;
}

/** A project's surveys, oldest first. */
export async function listProjectSurveys(db: Db, publicUrl: string, projectId: number): Promise<AdminSurvey[]> {
  const rows = await db.select().from(surveys).where(eq(surveys.projectId, projectId)).orderBy(asc(surveys.createdAt), asc(surveys.id));
  return surveyViews(db, publicUrl, rows);
}

export async function findSurvey(db: Db, id: number): Promise<Survey | null> {
  const [row] = await surveyById(db).execute({ id });
  return row ?? null;
}

/** Every admin survey call reads its survey by id first: prepared once per database (docs/decisions/026-prepared-statements.md). */
const surveyById = preparedFor((db: Db) =>
  db
    .select()
    .from(surveys)
    .where(eq(surveys.id, sql.placeholder('id')))
    .limit(1)
    .prepare('survey_by_id'),
);

/** The survey, or 404 `not_found`. */
export async function existingSurvey(db: Db, id: number): Promise<Survey> {
  return foundOr404(await findSurvey(db, id), 'No such survey');
}

/** What the audit log keeps of a survey. */
export const surveySummary = (row: Survey) => ({
  title: row.title,
  description: row.description,
  translations: row.translations,
  kind: row.kind,
  formId: row.formId,
  formVersion: row.formVersion,
  ...surveyRules(row),
});

/** A new survey in the project (native: the form checks of `resolveFormChoice`). */
export async function createSurvey(db: Db, clock: Clock, projectId: number, input: SurveyCreate, actorId: number): Promise<Survey> {
  const form = input.kind === 'native' ? await resolveFormChoice(db, input.formId, input.formVersion) : null;
  const rows = await db
    .insert(surveys)
    .values({
      projectId,
      title: input.title,
      description: input.description,
      translations: input.translations,
      kind: input.kind,
      formId: form?.formId ?? null,
      formVersion: form?.version ?? null,
      externalUrl: input.kind === 'external' ? (input.externalUrl ?? null) : null,
      trustReturns: input.trustReturns,
      returnKey: input.kind === 'external' ? newReturnKey() : null,
      points: input.points,
      estimatedMinutes: input.estimatedMinutes,
      opensAt: toDate(input.opensAt),
      closesAt: toDate(input.closesAt),
      status: input.status,
      ...authoredColumns(actorId, clock.now()),
    })
    .returning();
  return insertedRow(rows);
}

/** True when anyone has a response (any status) or an external start for the survey. */
export async function surveyHasResponses(db: Db, surveyId: number): Promise<boolean> {
  const [response] = await db.select({ id: surveyResponses.id }).from(surveyResponses).where(eq(surveyResponses.surveyId, surveyId)).limit(1);
  if (response) return true;
  const [ref] = await db.select({ id: surveyExternalRefs.id }).from(surveyExternalRefs).where(eq(surveyExternalRefs.surveyId, surveyId)).limit(1);
  return ref !== undefined;
}

export const HAS_RESPONSES_MESSAGE = 'This survey already has responses: its kind and form can no longer change';

/**
 * Changes the given fields of a survey. `formVersion` moves new responses to another published
 * version of the same form (any one; answers keep theirs). Changing the kind, or the form, once
 * there are responses is 409 `has_responses`. Returns the survey before and after.
 */
export async function updateSurvey(db: Db, clock: Clock, id: number, patch: SurveyPatch): Promise<{ before: Survey; after: Survey }> {
  const before = await existingSurvey(db, id);
  const kind = patch.kind ?? before.kind;
  const formId = kind === 'native' ? (patch.formId === undefined ? before.formId : patch.formId) : null;
  const kindChanged = kind !== before.kind;
  const formChanged = kind === 'native' && formId !== before.formId;
  if ((kindChanged || formChanged) && (await surveyHasResponses(db, id))) throw new ApiError(409, 'has_responses', HAS_RESPONSES_MESSAGE);

  const values: Partial<typeof surveys.$inferInsert> = { updatedAt: clock.now() };
  if (kind === 'native') {
    if (kindChanged || formChanged || !before.formVersion) {
      const choice = await resolveFormChoice(db, formId, patch.formVersion);
      values.formId = choice.formId;
      values.formVersion = choice.version;
    } else if (patch.formVersion !== undefined && patch.formVersion !== before.formVersion) {
      if (!formId) throw fieldError('formId', FORM_CHOICE_MESSAGES.chooseForm);
      values.formVersion = await resolveFormVersion(db, formId, patch.formVersion);
    }
    if (kindChanged) values.externalUrl = null;
  } else {
    const externalUrl = patch.externalUrl === undefined ? before.externalUrl : patch.externalUrl;
    if (!externalUrl) throw fieldError('externalUrl', 'Enter the survey’s https:// link');
    values.externalUrl = externalUrl;
    values.formId = null;
    values.formVersion = null;
    // Its return links are fixed from now on (a survey turned native and back keeps its key).
    if (!before.returnKey) values.returnKey = newReturnKey();
  }
  const { opensAt, closesAt } = patchedMoments(before, patch);

  values.kind = kind;
  values.opensAt = opensAt;
  values.closesAt = closesAt;
  copyDefined(values, patch, ['title', 'description', 'translations', 'trustReturns', 'points', 'estimatedMinutes', 'status']);
  checkTranslationsWritten(ITEM_TEXT_FIELDS.survey, before, values);
  const [after] = await db.update(surveys).set(values).where(eq(surveys.id, id)).returning();
  if (!after) throw new ApiError(404, 'not_found', 'No such survey');
  return { before, after };
}

export const NOT_EXTERNAL_MESSAGE = 'Only an Alchemer survey has a webhook';

/**
 * Makes or replaces an external survey's webhook secret (409 `not_external` for a native one):
 * the secret is answered once, only its SHA-256 is kept. Call it in the transaction of its audit row.
 */
export async function makeWebhookSecret(db: Db, clock: Clock, id: number): Promise<{ secret: string; replaced: boolean; survey: Survey }> {
  // The row is locked: two replacements at once answer two secrets, and the one kept is the last one answered.
  const [before] = await db.select().from(surveys).where(eq(surveys.id, id)).for('update');
  if (!before) throw new ApiError(404, 'not_found', 'No such survey');
  if (before.kind !== 'external') throw new ApiError(409, 'not_external', NOT_EXTERNAL_MESSAGE);
  const { secret, survey } = await replaceWebhookSecret(db, clock, id);
  return { secret, replaced: before.webhookSecretHash !== null, survey };
}
