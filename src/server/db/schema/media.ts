import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Uploaded photos: checked by content, re-encoded (EXIF and GPS stripped, orientation applied)
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
    /** The stored display image's type (`image/jpeg` or `image/webp`). */
    contentType: text('content_type').notNull(),
    /** After orientation. */
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Bytes of the stored display image. */
    bytes: integer('bytes').notNull(),
    /** Bytes of the upload as received (counts against the per-user daily limit). */
    uploadedBytes: integer('uploaded_bytes').notNull(),
    displayKey: text('display_key').notNull(),
    thumbnailKey: text('thumbnail_key').notNull(),
    thumbnailWidth: integer('thumbnail_width').notNull(),
    thumbnailHeight: integer('thumbnail_height').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When an answer (draft or submitted) or a mission's instructions first held it; never-attached uploads are removed after 7 days. */
    attachedAt: timestamp('attached_at', { withTimezone: true }),
  },
  (t) => [
    index('media_owner_created_idx').on(t.ownerId, t.createdAt),
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
