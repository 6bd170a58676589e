/** The gallery's payloads (browser and server): the page query, a photo's tags and star, the ZIP of selected photos. */
import { z } from '../zod.ts';
import { filterDaySchema } from './fields.ts';
import { MESSAGES } from '../messages.ts';
import { ENTRY_STATUSES } from '../mission-entries.ts';
import { MEDIA_KINDS } from '../media.ts';
import { decodeGalleryCursor, GALLERY_LIMITS, GALLERY_MESSAGES, GALLERY_PAGE, normalizeTag, normalizeTags } from '../gallery.ts';

const id = z.coerce.number({ error: 'Must be a number' }).int('Must be a whole number').min(1, 'Must be a positive number').max(2_147_483_647, 'Too large');

/** A media id as the API makes them (22 characters of base64url). */
const mediaId = z.string({ error: 'Must be a photo id' }).regex(/^[A-Za-z0-9_-]{22}$/, 'Must be a photo id');

/** One tag: trimmed, lower-cased; empty or longer than `GALLERY_LIMITS.tagLength` refused. */
const tag = z
  .string({ error: 'Must be text' })
  .transform(normalizeTag)
  .pipe(z.string().min(1, MESSAGES.required).max(GALLERY_LIMITS.tagLength, GALLERY_MESSAGES.tagTooLong));

/** A list of tags, normalized (duplicates dropped), at most `GALLERY_LIMITS.tagsMax`. */
const tagList = z
  .array(z.string({ error: 'Must be text' }).max(200, GALLERY_MESSAGES.tagTooLong), { error: 'Must be a list of tags' })
  .max(200, GALLERY_MESSAGES.tooManyTags)
  .transform(normalizeTags)
  .pipe(z.array(z.string().max(GALLERY_LIMITS.tagLength, GALLERY_MESSAGES.tagTooLong)).max(GALLERY_LIMITS.tagsMax, GALLERY_MESSAGES.tooManyTags));

/**
 * `GET /api/admin/gallery?cursor&limit&projectId&missionId&userId&participant&state&replaced&tag&starred&kind&from&to`:
 * `kind` `photo` or `video` keeps that kind only;
 * `participant`: part of the uploader's name or email (any case); `replaced` `true`: the photos
 * not in their answer's current version instead of those in it; `from`/`to` are UTC days, both
 * included; `starred` `true` keeps starred photos, `false` the others.
 */
export const galleryQuerySchema = z.object({
  cursor: z
    .string()
    .refine((value) => decodeGalleryCursor(value) !== null, GALLERY_MESSAGES.badCursor)
    .optional(),
  limit: z.coerce
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(1, 'At least 1')
    .max(GALLERY_PAGE.max, `At most ${GALLERY_PAGE.max}`)
    .default(GALLERY_PAGE.default),
  projectId: id.optional(),
  missionId: id.optional(),
  userId: id.optional(),
  participant: z
    .string({ error: 'Must be text' })
    .trim()
    .max(GALLERY_LIMITS.participantLength, GALLERY_MESSAGES.participantTooLong)
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
  state: z.enum(ENTRY_STATUSES, { error: MESSAGES.invalidEnumValue }).optional(),
  replaced: z.enum(['true', 'false'], { error: MESSAGES.invalidEnumValue }).optional(),
  tag: tag.optional(),
  starred: z.enum(['true', 'false'], { error: MESSAGES.invalidEnumValue }).optional(),
  kind: z.enum(MEDIA_KINDS, { error: MESSAGES.invalidEnumValue }).optional(),
  from: filterDaySchema.optional(),
  to: filterDaySchema.optional(),
});
export type GalleryQuery = z.output<typeof galleryQuerySchema>;

/**
 * `PATCH /api/admin/media/{id}`: new tags (replacing them) and/or the star. `baseTags`: the tags
 * the edit started from; when they are not the photo's tags any more, 409 `conflict` with the
 * current ones (the screen merges and sends again).
 */
export const galleryMediaPatchSchema = z
  .strictObject({
    tags: tagList.optional(),
    starred: z.boolean({ error: 'Must be true or false' }).optional(),
    baseTags: tagList.optional(),
  })
  .refine((value) => value.tags !== undefined || value.starred !== undefined, { message: 'Send tags or starred', path: ['tags'] });
export type GalleryMediaPatch = z.input<typeof galleryMediaPatchSchema>;

/** `POST /api/admin/media/zip`: 1 to `GALLERY_LIMITS.zipMax` photo ids (duplicates count once). */
export const galleryZipSchema = z.strictObject({
  ids: z
    .array(mediaId, { error: MESSAGES.required })
    .min(1, MESSAGES.required)
    .max(GALLERY_LIMITS.zipMax, GALLERY_MESSAGES.zipTooMany)
    .transform((ids) => [...new Set(ids)]),
});
export type GalleryZipInput = z.input<typeof galleryZipSchema>;
