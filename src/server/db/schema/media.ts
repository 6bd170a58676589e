import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { missionEntries, missions } from './missions.ts';
import { projects } from './projects.ts';
import { surveyResponses } from './surveys.ts';
import { users } from './users.ts';
import { MEDIA_KINDS, MEDIA_STATUSES } from '../../../shared/media.ts';

/**
 * Uploaded photos and videos. Photos: checked by content, re-encoded (EXIF and GPS stripped, orientation applied)
 * into a display size and a thumbnail, stored through the storage interface under server-made
 * keys. The id is random (unguessable) and is what answers hold. Served only to the owner and to
 * moderators and admins.
 */
export const media = pgTable(
  'media',
  {
    id: text('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `photo` or `video` (`MEDIA_KINDS`): what the upload turned out to be, from its content. */
    kind: text('kind', { enum: MEDIA_KINDS }).notNull().default('photo'),
    /**
     * `uploading` (a resumable upload under way: the bytes are in the upload store, not yet in
     * storage) → `processing` (all bytes arrived; the `media.process` job runs) → `ready` | `failed`
     * (`failureReason` says why). Multipart photos are `ready` at once.
     */
    status: text('status', { enum: MEDIA_STATUSES }).notNull().default('ready'),
    /** Why processing failed, for the participant (`MEDIA_MESSAGES` / `VIDEO_MESSAGES`). */
    failureReason: text('failure_reason'),
    /** An upload still `uploading` after this is removed (tus expiration, 24 hours). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Videos: the processed video's length (ms). */
    durationMs: integer('duration_ms'),
    /** The stored display file's type (`image/jpeg`, `image/webp`, `video/mp4`); null until `ready`. */
    contentType: text('content_type'),
    /** After orientation; null until `ready`. */
    width: integer('width'),
    height: integer('height'),
    /** Bytes of the stored display file; null until `ready`. */
    bytes: integer('bytes'),
    /** Bytes of the upload as received or declared (`Upload-Length`): counts against the per-user daily limit. */
    uploadedBytes: integer('uploaded_bytes').notNull(),
    /** The display image, or a video's MP4; null until `ready`. */
    displayKey: text('display_key'),
    /** The thumbnail, or a video's poster frame (WebP); null until `ready`. */
    thumbnailKey: text('thumbnail_key'),
    thumbnailWidth: integer('thumbnail_width'),
    thumbnailHeight: integer('thumbnail_height'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When an answer (draft or submitted) or a mission's instructions first held it; never-attached uploads are removed after 7 days. */
    attachedAt: timestamp('attached_at', { withTimezone: true }),
    /**
     * Where a participant's answer holds it (the gallery's filters, `services/gallery.ts`): the
     * project, and the mission entry or survey response. Set when an answer holding the photo is
     * saved; null for uploads no answer holds (and for photos in a mission's instructions).
     */
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'set null' }),
    missionId: integer('mission_id').references(() => missions.id, { onDelete: 'set null' }),
    entryId: integer('entry_id').references(() => missionEntries.id, { onDelete: 'set null' }),
    responseId: integer('response_id').references(() => surveyResponses.id, { onDelete: 'set null' }),
    /** Staff's tags (lower-case, no duplicates) and star, in the gallery. */
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    starred: boolean('starred').notNull().default(false),
  },
  (t) => [
    index('media_owner_created_idx').on(t.ownerId, t.createdAt),
    // The gallery: newest first (a backward scan: plain `desc` sorts nulls first, which a `desc nulls last` index cannot serve), keyset-paginated on (created_at, id), over the photos an answer holds.
    index('media_gallery_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.projectId} is not null`),
    // The gallery's `kind=video` filter (videos are few among the photos: their own small index, newest first like the gallery's).
    index('media_gallery_video_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.projectId} is not null and ${t.kind} = 'video'`),
    index('media_gallery_project_idx').on(t.projectId, t.createdAt, t.id),
    index('media_gallery_mission_idx').on(t.missionId, t.createdAt, t.id),
    index('media_gallery_starred_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.starred}`),
    index('media_entry_idx').on(t.entryId),
    index('media_response_idx').on(t.responseId),
    index('media_tags_idx').using('gin', t.tags),
    index('media_uploading_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'uploading'`),
    index('media_unattached_idx')
      .on(t.createdAt)
      .where(sql`${t.attachedAt} is null`),
  ],
);
export type Media = typeof media.$inferSelect;

/**
 * Uploads under way: a row is taken before the body is read (it holds one of the account's
 * upload places and reserves `bytes` of its daily budget) and removed when the upload ends,
 * stored or refused. A row left by a killed process stops counting after `expiresAt`.
 */
export const mediaUploadReservations = pgTable(
  'media_upload_reservations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bytes: integer('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('media_upload_reservations_owner_idx').on(t.ownerId, t.expiresAt)],
);
export type MediaUploadReservation = typeof mediaUploadReservations.$inferSelect;
