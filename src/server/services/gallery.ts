/**
 * The gallery (`/admin/gallery`, docs/product.md §2): the photos participants' answers hold,
 * newest first, for moderators and admins — a keyset-paginated page with filters, a photo's tags
 * and star, and a ZIP of selected photos streamed as it is made.
 *
 * The gallery is `media` rows with `project_id` set. The links (`project_id`, `mission_id`,
 * `entry_id` or `response_id`) are written by `linkAnswerMedia`, in the transaction of every save
 * of a participant's answers (mission entries: `mission-entries.ts`; survey responses:
 * `survey-responses.ts`). A photo taken out of an answer keeps its link: the entry's kept versions
 * (and the review history) may still show it, and it still is that participant's photo for that
 * project. A photo put into another of the owner's answers moves to that one (the latest save wins).
 *
 * What the gallery, its filters and its ZIP show by default is the photos of each answer's current
 * version (`entry-versions.ts`, the rule the review exports follow): a photo the participant
 * replaced keeps its link but is shown only when asked for (`replaced=true`), marked as such
 * (`versionState`), and goes in a folder of its own in a ZIP.
 */
import { PassThrough, Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { and, eq, inArray, isNotNull, not, sql, type SQL } from 'drizzle-orm';
import { addDays, utcMidnight } from '../../shared/calendar-day.ts';
import {
  decodeGalleryCursor,
  encodeGalleryCursor,
  GALLERY_MESSAGES,
  galleryZipName,
  sameTags,
  type GalleryItem,
  type GalleryPage,
  type GalleryVersionState,
} from '../../shared/gallery.ts';
import { posterUrl, thumbnailUrl, videoUrl } from '../../shared/media.ts';
import type { EntryStatus } from '../../shared/mission-entries.ts';
import type { GalleryQuery } from '../../shared/schemas/gallery.ts';
import type { Db } from '../db/index.ts';
import { media, missionEntries, missions, projects, surveyResponses, surveys, users } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Storage } from '../storage/storage.ts';
import { audit, type AuditInput } from './audit.ts';
import { answersHoldMedia, currentEntryAnswers } from './entry-versions.ts';
import { isMediaId } from './media.ts';
import { userSearchMatches } from './users.ts';

// ---------------------------------------------------------------------------------------------
// Links: which answer holds a photo

/**
 * Every string in an answers value that can be a media id (photo answers hold arrays of ids; the
 * ids are random, so a text answer that happens to look like one matches no row of the owner's).
 */
export function mediaIdsInAnswers(answers: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > 6) return;
    if (typeof value === 'string') {
      if (isMediaId(value)) found.add(value);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
    } else if (value !== null && typeof value === 'object') {
      for (const item of Object.values(value)) visit(item, depth + 1);
    }
  };
  visit(answers, 0);
  return [...found];
}

/** Where an answer is: a mission entry, or a survey response. */
export type AnswerHolder =
  { kind: 'entry'; projectId: number; missionId: number; entryId: number } | { kind: 'response'; projectId: number; responseId: number };

/**
 * Links the owner's photos that `answers` hold to the answer (`db` is the save's transaction).
 * Only the owner's own rows are touched, and only those not linked to this answer already.
 */
export async function linkAnswerMedia(db: Db, ownerId: number, holder: AnswerHolder, answers: unknown): Promise<void> {
  const ids = mediaIdsInAnswers(answers);
  if (ids.length === 0) return;
  const link =
    holder.kind === 'entry'
      ? { projectId: holder.projectId, missionId: holder.missionId, entryId: holder.entryId, responseId: null }
      : { projectId: holder.projectId, missionId: null, entryId: null, responseId: holder.responseId };
  const already =
    holder.kind === 'entry'
      ? sql`${media.entryId} is not distinct from ${holder.entryId}::int`
      : sql`${media.responseId} is not distinct from ${holder.responseId}::int`;
  await db
    .update(media)
    .set(link)
    .where(and(inArray(media.id, ids), eq(media.ownerId, ownerId), sql`not (${already})`));
}

// ---------------------------------------------------------------------------------------------
// The page

/**
 * Whether the photo's answer holds it in its current version: a mission entry's current version
 * (`currentEntryAnswers`), a survey response's answers. A photo whose answer is gone is in none.
 * Evaluated on the rows the gallery's index scan reads (one indexed read of `entry_submissions` each).
 */
const inCurrentVersion = sql<boolean>`(case
  when ${media.entryId} is not null then ${answersHoldMedia(currentEntryAnswers(missionEntries.id, missionEntries.answers), media.id)}
  when ${media.responseId} is not null then ${answersHoldMedia(surveyResponses.answers, media.id)}
  else false end)`;

/** `GalleryVersionState`: current; else held by the entry's own answers (changes not submitted yet); else replaced. */
const versionState = sql<GalleryVersionState>`(case
  when ${inCurrentVersion} then 'current'
  when ${media.entryId} is not null and ${answersHoldMedia(missionEntries.answers, media.id)} then 'unsubmitted'
  else 'replaced' end)`;

/** The row's time as the cursor carries it: microseconds, UTC (a `Date` would lose them). */
const cursorAt = sql<string>`to_char(${media.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const itemColumns = {
  id: media.id,
  kind: media.kind,
  durationMs: media.durationMs,
  createdAt: media.createdAt,
  cursorAt,
  width: media.width,
  height: media.height,
  thumbnailWidth: media.thumbnailWidth,
  thumbnailHeight: media.thumbnailHeight,
  tags: media.tags,
  starred: media.starred,
  projectId: media.projectId,
  missionId: media.missionId,
  entryId: media.entryId,
  responseId: media.responseId,
  ownerId: media.ownerId,
  displayKey: media.displayKey,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  projectName: projects.name,
  missionTitle: missions.title,
  surveyId: surveyResponses.surveyId,
  surveyTitle: surveys.title,
  entryStatus: missionEntries.status,
  versionState,
};

/** The gallery's rows with what an item shows (names, titles, the entry's status). */
function itemsQuery(db: Db) {
  return db
    .select(itemColumns)
    .from(media)
    .innerJoin(users, eq(users.id, media.ownerId))
    .leftJoin(projects, eq(projects.id, media.projectId))
    .leftJoin(missions, eq(missions.id, media.missionId))
    .leftJoin(missionEntries, eq(missionEntries.id, media.entryId))
    .leftJoin(surveyResponses, eq(surveyResponses.id, media.responseId))
    .leftJoin(surveys, eq(surveys.id, surveyResponses.surveyId));
}

type ItemRow = Awaited<ReturnType<ReturnType<typeof itemsQuery>['execute']>>[number];

function itemView(row: ItemRow): GalleryItem {
  const name = `${row.firstName} ${row.lastName}`.trim() || row.email;
  const path = `/api/media/${encodeURIComponent(row.id)}`;
  const video = row.kind === 'video';
  return {
    id: row.id,
    kind: row.kind,
    url: video ? videoUrl(row.id) : path,
    thumbnailUrl: video ? posterUrl(row.id) : thumbnailUrl(row.id),
    durationMs: video ? row.durationMs : null,
    tags: row.tags,
    starred: row.starred,
    entryId: row.entryId,
    missionId: row.missionId,
    responseId: row.responseId,
    surveyId: row.responseId === null ? null : row.surveyId,
    projectId: row.projectId ?? 0,
    userId: row.ownerId,
    createdAt: row.createdAt.toISOString(),
    // The gallery's queries read ready rows only (their `status` condition): the sizes are set.
    width: row.width ?? 0,
    height: row.height ?? 0,
    thumbnailWidth: row.thumbnailWidth ?? 0,
    thumbnailHeight: row.thumbnailHeight ?? 0,
    userName: name,
    projectName: row.projectName ?? '',
    sourceTitle: row.missionTitle ?? row.surveyTitle ?? '',
    entryStatus: (row.entryStatus as EntryStatus | null) ?? null,
    versionState: row.versionState,
  };
}

/**
 * The query of one page of the gallery (`GET /api/admin/gallery`; `limit + 1` rows, the last
 * only says there is more): newest first, keyset on (created_at, id)
 * after `cursor`, so a page costs the same at any depth and photos with the same time are neither
 * repeated nor skipped. Each filter is a column of `media` with its index (project, mission,
 * owner, starred, tags' GIN; `kind=video` the partial `media_gallery_video_idx`), except `state`, the entry's status (survey photos have none, so
 * `state` keeps entry photos only), `participant` (part of the uploader's name or email: the
 * users search's trigram index finds the people, then their photos) and the version rule: the
 * photos of each answer's current version, or with `replaced` the others (checked on the rows
 * read, so a page of replaced photos reads as far as it takes to find them: few photos are
 * replaced, and the other filters narrow that scan).
 */
export function galleryPageQuery(db: Db, query: GalleryQuery) {
  const conditions: (SQL | undefined)[] = [isNotNull(media.projectId), eq(media.status, 'ready')];
  if (query.cursor) {
    const cursor = decodeGalleryCursor(query.cursor);
    if (!cursor) throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { cursor: [GALLERY_MESSAGES.badCursor] } });
    conditions.push(sql`(${media.createdAt}, ${media.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id})`);
  }
  if (query.projectId !== undefined) conditions.push(eq(media.projectId, query.projectId));
  if (query.missionId !== undefined) conditions.push(eq(media.missionId, query.missionId));
  if (query.userId !== undefined) conditions.push(eq(media.ownerId, query.userId));
  if (query.participant !== undefined)
    conditions.push(sql`${media.ownerId} in (select ${users.id} from ${users} where ${userSearchMatches(query.participant)})`);
  if (query.state !== undefined) conditions.push(eq(missionEntries.status, query.state));
  conditions.push(query.replaced === 'true' ? not(inCurrentVersion) : inCurrentVersion);
  if (query.tag !== undefined) conditions.push(sql`${media.tags} @> array[${query.tag}]::text[]`);
  if (query.starred === 'true') conditions.push(eq(media.starred, true));
  if (query.starred === 'false') conditions.push(eq(media.starred, false));
  if (query.kind !== undefined) conditions.push(eq(media.kind, query.kind));
  if (query.from) conditions.push(sql`${media.createdAt} >= ${utcMidnight(query.from).toISOString()}::timestamptz`);
  if (query.to) conditions.push(sql`${media.createdAt} < ${utcMidnight(addDays(query.to, 1)).toISOString()}::timestamptz`);
  return itemsQuery(db)
    .where(and(...conditions))
    .orderBy(sql`${media.createdAt} desc`, sql`${media.id} desc`) // the indexes (ascending) scanned backwards
    .limit(query.limit + 1);
}

/** One page of the gallery (`galleryPageQuery`), with the cursor of the next. */
export async function galleryPage(db: Db, query: GalleryQuery): Promise<GalleryPage> {
  const rows = await galleryPageQuery(db, query);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(itemView),
    nextCursor: rows.length > query.limit && last ? encodeGalleryCursor({ createdAt: last.cursorAt, id: last.id }) : null,
  };
}

/** One photo of the gallery, or null when there is none (or no answer holds it). */
export async function galleryItem(db: Db, id: string): Promise<GalleryItem | null> {
  if (!isMediaId(id)) return null;
  const [row] = await itemsQuery(db)
    .where(and(eq(media.id, id), isNotNull(media.projectId), eq(media.status, 'ready')))
    .limit(1);
  return row ? itemView(row) : null;
}

// ---------------------------------------------------------------------------------------------
// Tags and star

export interface GalleryPatch {
  tags?: string[] | undefined;
  starred?: boolean | undefined;
  baseTags?: string[] | undefined;
}

/**
 * `PATCH /api/admin/media/{id}`: replaces the tags (already normalized by the schema) and/or sets
 * the star, audited in the same transaction. With `baseTags`, the change is refused with 409
 * `conflict` (`current`: the photo's tags and star) when the photo's tags are not those any more:
 * another moderator changed them meanwhile, and the screen merges. 404 for an unknown photo or
 * one no answer holds.
 */
export async function updateGalleryMedia(db: Db, id: string, patch: GalleryPatch, actor: { id: number; ip: string | null }): Promise<GalleryItem> {
  if (!isMediaId(id)) throw new ApiError(404, 'not_found', GALLERY_MESSAGES.notFound);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: media.id, tags: media.tags, starred: media.starred })
      .from(media)
      .where(and(eq(media.id, id), isNotNull(media.projectId)))
      .for('update');
    if (!row) throw new ApiError(404, 'not_found', GALLERY_MESSAGES.notFound);
    if (patch.tags !== undefined && patch.baseTags !== undefined && !sameTags(patch.baseTags, row.tags)) {
      throw new ApiError(409, 'conflict', GALLERY_MESSAGES.conflict, { details: { current: { tags: row.tags, starred: row.starred } } });
    }
    const values: { tags?: string[]; starred?: boolean } = {};
    if (patch.tags !== undefined) values.tags = patch.tags;
    if (patch.starred !== undefined) values.starred = patch.starred;
    await tx.update(media).set(values).where(eq(media.id, id));
    const entry: AuditInput = {
      actorId: actor.id,
      via: 'api',
      action: 'media.update',
      targetType: 'media',
      targetId: id,
      before: { tags: row.tags, starred: row.starred },
      after: { tags: values.tags ?? row.tags, starred: values.starred ?? row.starred },
      ip: actor.ip,
    };
    await audit(tx, entry);
  });
  const item = await galleryItem(db, id);
  if (!item) throw new ApiError(404, 'not_found', GALLERY_MESSAGES.notFound);
  return item;
}

// ---------------------------------------------------------------------------------------------
// The ZIP

/** What the ZIP will hold: each photo's file name and storage key. */
export interface GalleryZipPlan {
  files: { id: string; name: string; key: string; date: Date }[];
}

/**
 * Checks the selected photos before a byte is sent: every id must be a gallery photo (404
 * otherwise, naming none of them), in the order given. A photo not in its answer's current
 * version (`versionState`, as the gallery marks it) goes in a folder named for it (`replaced/`,
 * `unsubmitted/`), so a ZIP made from a stale selection never passes one off as current.
 * Audited (who took which photos).
 */
export async function planGalleryZip(db: Db, ids: readonly string[], actor: { id: number; ip: string | null }): Promise<GalleryZipPlan> {
  const valid = ids.filter(isMediaId);
  const rows = valid.length === 0 ? [] : await itemsQuery(db).where(and(inArray(media.id, valid), isNotNull(media.projectId), eq(media.status, 'ready')));
  if (rows.length !== ids.length) throw new ApiError(404, 'not_found', GALLERY_MESSAGES.zipUnknown);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const files = ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row || row.displayKey === null) return [];
    // A video's display file is its processed MP4 (streamed like a photo: never held whole).
    const extension = row.kind === 'video' ? 'mp4' : row.displayKey.slice(row.displayKey.lastIndexOf('.') + 1);
    const name = galleryZipName(itemView(row), extension);
    return [{ id: row.id, name: row.versionState === 'current' ? name : `${row.versionState}/${name}`, key: row.displayKey, date: row.createdAt }];
  });
  await audit(db, { actorId: actor.id, via: 'api', action: 'media.zip', targetType: 'media', after: { ids: files.map((file) => file.id) }, ip: actor.ip });
  return { files };
}

/** Bytes the ZIP may hold ready for a slow reader before the next photo is read. */
const ZIP_BUFFER_BYTES = 1024 * 1024;

/**
 * The ZIP of a plan as a web stream: each display image streamed from storage (`open`: a local
 * file or an S3 object alike) one at a time and stored as it is (JPEG and WebP are compressed
 * already), the next opened only once the reader has taken what was made (about
 * `ZIP_BUFFER_BYTES` held, never a whole photo). A file missing from storage is left out and
 * logged; a reader that goes away stops the work (and the read of the photo under way).
 */
export function galleryZipStream(storage: Storage, plan: GalleryZipPlan, logger: Logger): ReadableStream<Uint8Array> {
  const archive = new ZipArchive({ store: true });
  const out = new PassThrough({ highWaterMark: ZIP_BUFFER_BYTES });
  archive.pipe(out);
  archive.on('warning', (error) => logger.warn({ err: error }, 'gallery zip: warning'));
  archive.on('error', (error) => {
    logger.error({ err: error }, 'gallery zip: failed');
    out.destroy(error);
  });
  const gone = () => out.destroyed;
  let finished = false;
  /** The photo being read into the archive, destroyed if the reader goes away meanwhile. */
  let current: Readable | undefined;
  const drained = async () => {
    while (!gone() && out.readableLength + archive.readableLength > ZIP_BUFFER_BYTES) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  void (async () => {
    try {
      for (const file of plan.files) {
        await drained();
        if (gone()) return;
        const opened = await storage.open(file.key);
        if (!opened) {
          logger.warn({ mediaId: file.id, key: file.key }, 'gallery zip: media file missing from storage');
          continue;
        }
        if (gone()) {
          opened.body.destroy();
          return;
        }
        current = opened.body;
        // Until the archive has taken the file in, or the reader went away (the archive is aborted then).
        await new Promise<void>((resolve) => {
          const done = () => {
            archive.off('entry', done);
            out.off('close', done);
            resolve();
          };
          archive.once('entry', done);
          out.once('close', done);
          // Streamed in from the store as the ZIP is read (local file or S3 object alike).
          archive.append(opened.body, { name: file.name, date: file.date, store: true });
        });
        current = undefined;
      }
      if (!gone()) await archive.finalize();
      finished = true;
    } catch (error) {
      logger.error({ err: error }, 'gallery zip: failed');
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  out.on('close', () => {
    if (finished) return;
    archive.abort();
    current?.destroy();
  });
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}
