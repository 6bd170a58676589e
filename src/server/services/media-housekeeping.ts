/**
 * Media housekeeping (the daily `media.housekeeping` job): uploads that nothing ever held are
 * deleted after `MEDIA_LIMITS.unattachedDays` days, rows and files; upload reservations left by a
 * killed process are deleted too. `docs/decisions/010-uploads.md` explains the rules.
 *
 * "Attached" means held by an answer of the owner (a survey response or mission entry, draft or
 * submitted), a kept version of one of the owner's entries (`entry_submissions`), or a mission's
 * instructions (written by staff: found by the link text). Only uploads still unmarked and older
 * than the limit are looked at (`media_unattached_idx`); those found attached get `attached_at`
 * and are never looked at again, the rest go.
 */
import { and, asc, inArray, isNull, lt, not, sql, type SQL } from 'drizzle-orm';
import { MEDIA_LIMITS } from '../../shared/media.ts';
import type { Db } from '../db/index.ts';
import { media } from '../db/schema/index.ts';
import type { Logger } from '../logger.ts';
import type { Storage } from '../storage/storage.ts';
import type { Clock } from './clock.ts';
import { deleteExpiredReservations } from './media.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Uploads looked at per round. */
export const HOUSEKEEPING_BATCH = 200;

/**
 * Whether something holds the `media` row of the statement (SQL, correlated). The owner's own
 * answers only (`user_id = owner_id`): a participant's answers can only hold their own photos, and
 * the owner's rows are few, so each check is cheap. The id is random: finding `"{id}"` in the
 * answers' JSON (or `/api/media/{id}` in instructions) is finding the photo.
 */
function heldByAnything(): SQL {
  const quoted = sql`'"' || ${media.id} || '"'`;
  return sql`(
    exists (select 1 from survey_responses r where r.user_id = ${media.ownerId} and strpos(r.answers::text, ${quoted}) > 0)
    or exists (select 1 from mission_entries e where e.user_id = ${media.ownerId} and strpos(e.answers::text, ${quoted}) > 0)
    or exists (select 1 from entry_submissions s join mission_entries e on e.id = s.entry_id where e.user_id = ${media.ownerId} and strpos(s.answers::text, ${quoted}) > 0)
    or exists (select 1 from missions mi where strpos(mi.instructions, '/api/media/' || ${media.id}) > 0)
  )`;
}

export interface HousekeepingDeps {
  db: Db;
  clock: Clock;
  storage: Storage;
  logger: Logger;
}

export interface HousekeepingResult {
  /** Old uploads found attached (marked, kept). */
  attached: number;
  /** Old uploads never attached: rows and files deleted. */
  deleted: number;
  /** Expired upload reservations deleted. */
  reservations: number;
}

/**
 * One housekeeping run, in rounds of `HOUSEKEEPING_BATCH` uploads older than the limit and not
 * yet marked: the attached ones are marked, the others deleted (the delete checks again in its own
 * statement, so a photo attached meanwhile stays), then their files. A file that fails to be
 * deleted is logged and left (unreachable, only space).
 */
export async function housekeepMedia(deps: HousekeepingDeps): Promise<HousekeepingResult> {
  const { db, clock, storage, logger } = deps;
  const now = clock.now();
  const cutoff = new Date(now.getTime() - MEDIA_LIMITS.unattachedDays * DAY_MS);
  const result: HousekeepingResult = { attached: 0, deleted: 0, reservations: 0 };
  for (;;) {
    const batch = await db
      .select({ id: media.id })
      .from(media)
      .where(and(isNull(media.attachedAt), lt(media.createdAt, cutoff)))
      .orderBy(asc(media.createdAt), asc(media.id))
      .limit(HOUSEKEEPING_BATCH);
    if (batch.length === 0) break;
    const ids = batch.map((row) => row.id);
    const marked = await db
      .update(media)
      .set({ attachedAt: now })
      .where(and(inArray(media.id, ids), isNull(media.attachedAt), heldByAnything()))
      .returning({ id: media.id });
    const removed = await db
      .delete(media)
      .where(and(inArray(media.id, ids), isNull(media.attachedAt), lt(media.createdAt, cutoff), not(heldByAnything())))
      .returning({ id: media.id, displayKey: media.displayKey, thumbnailKey: media.thumbnailKey });
    for (const row of removed) {
      const keys = [row.displayKey, row.thumbnailKey].filter((key) => key !== null);
      const outcomes = await Promise.allSettled(keys.map((key) => storage.delete(key)));
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') logger.warn({ err: outcome.reason, mediaId: row.id }, 'media housekeeping: a file could not be deleted');
      }
    }
    result.attached += marked.length;
    result.deleted += removed.length;
    // A round that changed nothing (every row attached between the two statements) would repeat itself.
    if (batch.length < HOUSEKEEPING_BATCH || marked.length + removed.length === 0) break;
  }
  result.reservations = await deleteExpiredReservations(db, clock);
  return result;
}
