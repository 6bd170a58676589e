/** Uploaded photos (`POST /api/media`; zod-free: the browser checks early with the same limits and messages). */

/** Uploads (`POST /api/media`). */
export const MEDIA_LIMITS = {
  maxBytes: 20 * 1024 * 1024,
  maxPixels: 50_000_000,
  /** Longest side of the display size and of the thumbnail (px). */
  displaySide: 2048,
  thumbnailSide: 480,
  /** Per user: uploads per hour, and bytes per day. */
  uploadsPerHour: 300,
  bytesPerDay: 2 * 1024 * 1024 * 1024,
  /** Per user: uploads being sent or processed at once (the next is refused before its body is read). */
  uploadsAtOnce: 2,
  /** An upload whose body sends no byte for this long is cut off (408). */
  stallSeconds: 15,
  /** Uploads no answer, kept version or mission's instructions holds are removed after this many days. */
  unattachedDays: 7,
} as const;

/** What `POST /api/media` accepts, for a file input's `accept` (the server checks the content, not this). */
export const MEDIA_ACCEPT = 'image/jpeg,image/png,image/webp,image/heic,image/heif,.jpg,.jpeg,.png,.webp,.heic,.heif';

/** The upload errors' messages (the server's, word for word), for the browser to show or check early. */
export const MEDIA_MESSAGES = {
  fileRequired: 'Choose a photo to upload',
  empty: 'This file is empty: choose a photo',
  invalidUpload: 'The upload could not be read: send the photo as multipart/form-data in the field "file"',
  tooLarge: 'This photo is larger than 20 MB',
  notAnImage: 'Upload a JPEG, PNG, WebP or HEIC photo',
  heicUnsupported: 'HEIC photos cannot be read on this server yet: choose JPEG or PNG (on iPhone: Settings → Camera → Formats → Most Compatible)',
  unreadable: 'This photo could not be read: it may be damaged. Choose another one',
  tooManyPixels: 'This photo is larger than 50 megapixels',
  dailyBytes: 'You have uploaded as much as you can today. Try again later.',
  busy: 'The server is busy with other photos. Try again in a moment.',
  tooManyUploads: `You are already uploading ${MEDIA_LIMITS.uploadsAtOnce} photos: wait until one has finished, then try again.`,
  stalled: 'The upload stopped arriving: check your connection and try again.',
  inUse: 'This photo is part of a submitted answer and cannot be removed',
  notFound: 'No such photo',
} as const;

/** `POST /api/media`. */
export interface MediaUploaded {
  id: string;
  url: string;
  thumbnailUrl: string;
  width: number;
  height: number;
  bytes: number;
}

/** Where a stored photo's thumbnail is. */
export const thumbnailUrl = (id: string): string => `/api/media/${encodeURIComponent(id)}/thumbnail`;
