/**
 * Missions for moderators and admins: a project's list, create, one mission, update, its
 * submissions (participants' entries) and one submission with its answers and photos. Forms are
 * chosen with the surveys' rules (`resolveFormChoice`); an entry keeps the version it started on.
 */
import { and, asc, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { FormDefinition } from '../../shared/forms/definition.ts';
import type { AdminSubmissionDetail, SubmissionMedia } from '../../shared/mission-entries.ts';
import { answerLanguageOf } from '../../shared/answers.ts';
import type { AdminMission } from '../../shared/missions.ts';
import { posterUrl, videoUrl, VIDEO_MESSAGES } from '../../shared/media.ts';
import { ITEM_TEXT_FIELDS, type ActivityCounts } from '../../shared/projects.ts';
import type { missionCreateSchema, missionPatchSchema } from '../../shared/schemas/missions.ts';
import { isElevated } from '../../shared/roles.ts';
import type { Db } from '../db/index.ts';
import { formVersions, media, missionEntries, missions, projectMembers, users, type Mission } from '../db/schema/index.ts';
import { ApiError, foundOr404 } from '../errors.ts';
import type { Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import { copyMedia, isReadyMedia } from './media.ts';
import { authoredColumns, checkTranslationsWritten, insertedRow, iso } from './projects.ts';
import { countsAndLatestForms, memberCounts, patchedMoments, resolveFormChoice, resolveFormVersion, toDate } from './surveys.ts';

export type MissionCreate = z.output<typeof missionCreateSchema>;
export type MissionPatch = z.output<typeof missionPatchSchema>;

/**
 * Members, started and submitted for each mission, counting current members only: started = at
 * least one entry (any status); submitted = at least `entriesMin` entries submitted or approved.
 * Two grouped queries for any number of missions.
 */
export async function missionCounts(db: Db, rows: readonly Pick<Mission, 'id' | 'projectId'>[]): Promise<Map<number, ActivityCounts>> {
  const out = new Map<number, ActivityCounts>();
  if (rows.length === 0) return out;
  const ids = rows.map((row) => row.id);
  const perUser = db
    .select({
      missionId: missionEntries.missionId,
      userId: missionEntries.userId,
      done: sql<number>`(count(*) filter (where ${missionEntries.status} in ('submitted', 'approved')))::int`.as('done'),
    })
    .from(missionEntries)
    .where(inArray(missionEntries.missionId, ids))
    .groupBy(missionEntries.missionId, missionEntries.userId)
    .as('per_user');
  const [members, grouped] = await Promise.all([
    memberCounts(
      db,
      rows.map((row) => row.projectId),
    ),
    db
      .select({
        id: perUser.missionId,
        started: count(),
        submitted: sql<number>`(count(*) filter (where ${perUser.done} >= ${missions.entriesMin}))::int`.mapWith(Number),
      })
      .from(perUser)
      .innerJoin(missions, eq(missions.id, perUser.missionId))
      .innerJoin(projectMembers, and(eq(projectMembers.projectId, missions.projectId), eq(projectMembers.userId, perUser.userId)))
      .groupBy(perUser.missionId),
  ]);
  for (const row of rows) out.set(row.id, { members: members.get(row.projectId) ?? 0, started: 0, submitted: 0 });
  for (const row of grouped) {
    const counts = out.get(row.id);
    if (counts) Object.assign(counts, { started: row.started, submitted: row.submitted });
  }
  return out;
}

/** A mission's points, schedule, review and entry limits and status, as its admin view and audit rows show them. */
const missionRules = (row: Mission) => ({
  points: row.points,
  productId: row.productId,
  opensAt: iso(row.opensAt),
  closesAt: iso(row.closesAt),
  review: row.review,
  entries: { min: row.entriesMin, max: row.entriesMax, perDay: row.perDay },
  status: row.status,
});

/** The admin view of these missions (counts and latest form versions in grouped queries). */
export async function missionViews(db: Db, rows: readonly Mission[]): Promise<AdminMission[]> {
  const { counts, latest } = await countsAndLatestForms(db, rows, missionCounts);
  return rows.map((row) => ({
    id: row.id,
    projectId: row.projectId,
    title: row.title,
    instructions: row.instructions,
    translations: row.translations,
    formId: row.formId,
    formVersion: row.formVersion,
    latestFormVersion: latest.get(row.formId) ?? null,
    ...missionRules(row),
    counts: counts.get(row.id) ?? { members: 0, started: 0, submitted: 0 },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }));
}

export async function missionView(db: Db, row: Mission): Promise<AdminMission> {
  const [view] = await missionViews(db, [row]);
  if (!view) throw new Error('no view');
  return view;
}

/** A project's missions, oldest first. */
export async function listProjectMissions(db: Db, projectId: number): Promise<AdminMission[]> {
  const rows = await db.select().from(missions).where(eq(missions.projectId, projectId)).orderBy(asc(missions.createdAt), asc(missions.id));
  return missionViews(db, rows);
}

/** The mission, or 404 `not_found`. */
export async function existingMission(db: Db, id: number): Promise<Mission> {
  const [row] = await db.select().from(missions).where(eq(missions.id, id)).limit(1);
  return foundOr404(row, 'No such mission');
}

/** What the audit log keeps of a mission. */
export const missionSummary = (row: Mission) => ({
  title: row.title,
  instructions: row.instructions,
  translations: row.translations,
  formId: row.formId,
  formVersion: row.formVersion,
  ...missionRules(row),
});

/** A photo link in instructions' Markdown (`/api/media/{id}`, also `…/{id}/thumbnail`). */
const MEDIA_LINK = /\/api\/media\/([A-Za-z0-9_-]{22})(?![A-Za-z0-9_-])/g;

/**
 * Instructions as they are stored: every photo they link (`/api/media/{id}`) that is not owned by
 * a moderator or admin is copied into a new photo owned by `actorId` (files through storage, the
 * row attached at once) and the link rewritten to the copy, so that a participant's own photo
 * never becomes visible to every member (members see only staff-owned photos of instructions:
 * `seesMediaInInstructions`, docs/permissions.md "Photos"). Staff-owned photos stay as they are and
 * are marked attached. Links to photos that do not exist are left alone (they show nothing).
 * Run it in the transaction that writes the instructions: the copies' rows go with it (their files
 * stay behind if it fails, unreachable).
 */
export async function ownInstructionPhotos(db: Db, clock: Clock, storage: Storage, actorId: number, instructions: string): Promise<string> {
  const ids = [...new Set(Array.from(instructions.matchAll(MEDIA_LINK), (match) => match[1] ?? ''))].filter(Boolean);
  if (ids.length === 0) return instructions;
  const rows = await db.select({ photo: media, role: users.role }).from(media).innerJoin(users, eq(users.id, media.ownerId)).where(inArray(media.id, ids));
  const copies = new Map<string, string>();
  const staffOwned: string[] = [];
  for (const { photo, role } of rows) {
    if (isElevated(role)) {
      staffOwned.push(photo.id);
      continue;
    }
    // A participant's upload not yet stored (uploading, processing, failed) cannot be copied: its link stays as written.
    if (!isReadyMedia(photo)) continue;
    const copy = await copyMedia(db, clock, storage, photo, actorId);
    if (copy) copies.set(photo.id, copy.id);
  }
  if (staffOwned.length > 0)
    await db
      .update(media)
      .set({ attachedAt: clock.now() })
      .where(and(inArray(media.id, staffOwned), isNull(media.attachedAt)));
  if (copies.size === 0) return instructions;
  return instructions.replace(MEDIA_LINK, (link: string, id: string) => {
    const copy = copies.get(id);
    return copy === undefined ? link : `/api/media/${copy}`;
  });
}

/** Who saves a mission: their id, and the storage the photos of its instructions are copied through. */
export interface MissionActor {
  id: number;
  storage: Storage;
}

/**
 * A new mission in the project (the form checks of `resolveFormChoice`; the instructions' photos
 * by `ownInstructionPhotos`). Run it in a transaction with its audit row.
 */
export async function createMission(db: Db, clock: Clock, projectId: number, input: MissionCreate, actor: MissionActor): Promise<Mission> {
  const form = await resolveFormChoice(db, input.formId, input.formVersion);
  const instructions = await ownInstructionPhotos(db, clock, actor.storage, actor.id, input.instructions);
  const rows = await db
    .insert(missions)
    .values({
      projectId,
      title: input.title,
      instructions,
      translations: input.translations,
      formId: form.formId,
      formVersion: form.version,
      points: input.points,
      productId: input.productId,
      opensAt: toDate(input.opensAt),
      closesAt: toDate(input.closesAt),
      review: input.review,
      entriesMin: input.entries.min,
      entriesMax: input.entries.max,
      perDay: input.entries.perDay ?? null,
      status: input.status,
      ...authoredColumns(actor.id, clock.now()),
    })
    .returning();
  return insertedRow(rows);
}

export const HAS_ENTRIES_MESSAGE = 'This mission already has entries: its form can no longer change';

/**
 * Changes the given fields of a mission. `formVersion` moves new entries to another published
 * version of the same form; another form once there are entries is 409 `has_entries`. `entries`
 * is replaced as a whole (a missing `perDay` means no daily limit); `instructions` are stored
 * through `ownInstructionPhotos`. Returns before and after. Run it in a transaction with its
 * audit row.
 */
export async function updateMission(db: Db, clock: Clock, id: number, patch: MissionPatch, actor: MissionActor): Promise<{ before: Mission; after: Mission }> {
  const before = await existingMission(db, id);
  const values: Partial<typeof missions.$inferInsert> = { updatedAt: clock.now() };
  if (patch.formId !== undefined && patch.formId !== before.formId) {
    const [entry] = await db.select({ id: missionEntries.id }).from(missionEntries).where(eq(missionEntries.missionId, id)).limit(1);
    if (entry) throw new ApiError(409, 'has_entries', HAS_ENTRIES_MESSAGE);
    const choice = await resolveFormChoice(db, patch.formId, patch.formVersion);
    values.formId = choice.formId;
    values.formVersion = choice.version;
  } else if (patch.formVersion !== undefined && patch.formVersion !== before.formVersion) {
    values.formVersion = await resolveFormVersion(db, before.formId, patch.formVersion);
  }
  const { opensAt, closesAt } = patchedMoments(before, patch);
  values.opensAt = opensAt;
  values.closesAt = closesAt;
  if (patch.entries !== undefined) {
    values.entriesMin = patch.entries.min;
    values.entriesMax = patch.entries.max;
    values.perDay = patch.entries.perDay ?? null;
  }
  if (patch.title !== undefined) values.title = patch.title;
  if (patch.instructions !== undefined) values.instructions = await ownInstructionPhotos(db, clock, actor.storage, actor.id, patch.instructions);
  if (patch.points !== undefined) values.points = patch.points;
  if (patch.productId !== undefined) values.productId = patch.productId;
  if (patch.review !== undefined) values.review = patch.review;
  if (patch.status !== undefined) values.status = patch.status;
  if (patch.translations !== undefined) values.translations = patch.translations;
  checkTranslationsWritten(ITEM_TEXT_FIELDS.mission, before, values);
  const [after] = await db.update(missions).set(values).where(eq(missions.id, id)).returning();
  if (!after) throw new ApiError(404, 'not_found', 'No such mission');
  return { before, after };
}

// ---------------------------------------------------------------------------------------------
// Submissions

const userRefColumns = { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email };

/** The media ids of the photo and video answers, in the order of the form's elements, each once. */
export function photoIds(definition: FormDefinition | null, answers: Record<string, unknown>): string[] {
  const ids: string[] = [];
  const seen = new Set<string>();
  const mediaElements = definition
    ? definition.pages.flatMap((page) => page.elements).filter((element) => element.type === 'photo' || element.type === 'video')
    : [];
  for (const element of mediaElements) {
    const value = Object.hasOwn(answers, element.id) ? answers[element.id] : undefined;
    if (!Array.isArray(value)) continue;
    for (const id of value) {
      if (typeof id === 'string' && !seen.has(id)) {
        seen.add(id);
        ids.push(id);
      }
    }
  }
  return ids;
}

/** The photos and videos of a submission's answers (`SubmissionMedia`), in answer order: photos once stored, videos whatever their status. */
export async function submissionMedia(db: Db, ids: readonly string[]): Promise<SubmissionMedia[]> {
  if (ids.length === 0) return [];
  const found = await db
    .select({
      id: media.id,
      kind: media.kind,
      status: media.status,
      failureReason: media.failureReason,
      durationMs: media.durationMs,
      width: media.width,
      height: media.height,
    })
    .from(media)
    .where(inArray(media.id, [...ids]));
  const byId = new Map(found.map((item) => [item.id, item]));
  return ids.flatMap((mediaId): SubmissionMedia[] => {
    const item = byId.get(mediaId);
    if (!item) return [];
    const ready = item.status === 'ready' && item.width !== null && item.height !== null;
    // A photo not stored yet (uploading or processing) or failed: nothing to show. A video: its state.
    if (item.kind === 'photo' && !ready) return [];
    const path = `/api/media/${encodeURIComponent(mediaId)}`;
    const video = item.kind === 'video';
    return [
      {
        id: mediaId,
        kind: item.kind,
        status: item.status,
        failureReason: item.status === 'failed' ? (item.failureReason ?? VIDEO_MESSAGES.processingFailed) : null,
        durationMs: video && ready ? item.durationMs : null,
        url: video ? videoUrl(mediaId) : path,
        thumbnailUrl: video ? posterUrl(mediaId) : `${path}/thumbnail`,
        videoUrl: video && ready ? videoUrl(mediaId) : null,
        posterUrl: video && ready ? posterUrl(mediaId) : null,
        width: item.width ?? 0,
        height: item.height ?? 0,
      },
    ];
  });
}

/** One entry with its form version's definition, its photos, its time zone (and the earlier one when it changed) and the participant's other entries; 404 when unknown. */
export async function submissionDetail(db: Db, id: number): Promise<AdminSubmissionDetail> {
  const [row] = await db
    .select({ entry: missionEntries, projectId: missions.projectId, formId: missions.formId, user: userRefColumns })
    .from(missionEntries)
    .innerJoin(missions, eq(missions.id, missionEntries.missionId))
    .innerJoin(users, eq(users.id, missionEntries.userId))
    .where(eq(missionEntries.id, id))
    .limit(1);
  if (!row) throw new ApiError(404, 'not_found', 'No such submission');
  const { entry } = row;
  const [[version], others] = await Promise.all([
    db
      .select({ definition: formVersions.definition })
      .from(formVersions)
      .where(and(eq(formVersions.formId, row.formId), eq(formVersions.version, entry.formVersion)))
      .limit(1),
    db
      .select({
        id: missionEntries.id,
        status: missionEntries.status,
        localDate: missionEntries.localDate,
        submittedAt: missionEntries.submittedAt,
        createdAt: missionEntries.createdAt,
        timeZone: missionEntries.timeZone,
      })
      .from(missionEntries)
      .where(and(eq(missionEntries.missionId, entry.missionId), eq(missionEntries.userId, entry.userId), ne(missionEntries.id, entry.id)))
      .orderBy(asc(missionEntries.createdAt), asc(missionEntries.id)),
  ]);
  const definition = version?.definition ?? null;
  // The zone of the participant's entry made just before this one, when this one's differs (they changed zone).
  const before = others
    .filter(
      (other) => other.createdAt.getTime() < entry.createdAt.getTime() || (other.createdAt.getTime() === entry.createdAt.getTime() && other.id < entry.id),
    )
    .at(-1);
  const photos = await submissionMedia(db, photoIds(definition, entry.answers));
  return {
    id: entry.id,
    missionId: entry.missionId,
    projectId: row.projectId,
    user: row.user,
    status: entry.status,
    formVersion: entry.formVersion,
    definition,
    answers: entry.answers,
    language: answerLanguageOf(entry.language),
    media: photos,
    localDate: entry.localDate,
    timeZone: entry.timeZone,
    timeZoneChangedFrom: before && before.timeZone !== entry.timeZone ? before.timeZone : null,
    createdAt: entry.createdAt.toISOString(),
    submittedAt: iso(entry.submittedAt),
    otherEntries: others.map((other) => ({ id: other.id, status: other.status, localDate: other.localDate, submittedAt: iso(other.submittedAt) })),
  };
}
