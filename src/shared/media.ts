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

// ---------------------------------------------------------------------------------------------
// Field capture: resumable uploads (tus) and videos — `docs/decisions/038-field-capture.md`

/** What an upload turned out to be (from its content, never its name). */
export const MEDIA_KINDS = ['photo', 'video'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** Where an upload stands: `uploading` → `processing` → `ready` | `failed`. */
export const MEDIA_STATUSES = ['uploading', 'processing', 'ready', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** The tus resumable-upload endpoint (creation, creation-with-upload, termination, expiration). */
export const UPLOADS_PATH = '/api/uploads';

export const UPLOAD_LIMITS = {
  /** The browser sends a resumable upload in chunks of this size (one PATCH each). */
  chunkBytes: 8 * 1024 * 1024,
  /** An upload not finished after this many hours is removed (tus expiration; an S3 lifecycle rule too). */
  expiryHours: 24,
} as const;

/** Video answers (the `video` form element). */
export const VIDEO_LIMITS = {
  /** Largest video file accepted (bytes). */
  maxBytes: 1024 * 1024 * 1024,
  /** A question's default maximum length (seconds; the largest: `FORM_LIMITS.videoMaxSeconds`). */
  defaultMaxSeconds: 180,
  /** A question's default number of videos (the most: `FORM_LIMITS.videoMaxFiles`). */
  defaultMaxFiles: 1,
  /** The processed video is at most this tall (or wide, when portrait): 1080p. */
  outputSide: 1920,
  outputShortSide: 1080,
  /** Processing one video stops after this long (seconds) and fails. */
  processingSeconds: 30 * 60,
  /** A little leeway over a question's maximum length (containers round). */
  lengthLeewaySeconds: 1,
} as const;

/** What `/api/uploads` accepts for a video answer, for a file input's `accept`. */
export const VIDEO_ACCEPT = 'video/*';

/** Video messages (the server's, word for word). */
export const VIDEO_MESSAGES = {
  tooLarge: 'This video is larger than 1 GB',
  notAVideo: 'Upload a video (MP4, MOV or WebM)',
  unreadable: 'This video could not be read: it may be damaged. Choose another one',
  tooLong: (seconds: number) => `This video is longer than ${formatSeconds(seconds)}`,
  processingFailed: 'This video could not be processed. Choose another one, or record it again',
  processingTimedOut: 'This video took too long to process. Record a shorter one and try again',
  notReady: 'This video is still being processed',
  notFound: 'No such video',
  rangeNotSatisfiable: 'This part of the video does not exist: ask for bytes within its length',
} as const;

/** Upload messages of the resumable endpoint. */
export const UPLOAD_MESSAGES = {
  notFound: 'No such upload',
  expired: 'This upload has expired: send the file again',
  metadata: 'Say the file\'s name and type in Upload-Metadata ("filename", "filetype")',
  tooLarge: 'This file is too large',
  failedHere: 'The upload could not be finished. Try again',
  finished: 'This upload has already been received',
  length: "Say the file's size in bytes in Upload-Length",
  invalidRequest: 'This upload request is not valid: start the upload again',
  offsetMismatch: 'The upload is not where this request says: ask where it stands (HEAD) and go on from there',
  tusResumable: 'Send the header Tus-Resumable: 1.0.0',
} as const;

/** The message of a photo answer naming a media id the participant does not own (or that does not exist). */
export const PHOTO_NOT_FOUND_MESSAGE = 'This photo could not be found; upload it again';
/** The message of a video answer naming a media id the participant does not own (or that does not exist). */
export const VIDEO_NOT_FOUND_MESSAGE = 'This video could not be found; upload it again';
/** A video in a photo question. */
export const PHOTO_NOT_VIDEO_MESSAGE = 'This question takes photos, not videos';
/** A photo in a video question. */
export const VIDEO_NOT_PHOTO_MESSAGE = 'This question takes videos, not photos';

/** `GET /api/uploads/{uploadId}`: where an upload stands (the upload id is the media id). */
export interface UploadState {
  mediaId: string;
  kind: MediaKind;
  status: MediaStatus;
  /** Why it failed, for the person; null unless `failed`. */
  reason: string | null;
}

/** "3 minutes", "1 minute 30 seconds", "45 seconds". */
export function formatSeconds(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  const parts: string[] = [];
  if (minutes > 0) parts.push(`${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`);
  if (rest > 0 || minutes === 0) parts.push(`${rest} ${rest === 1 ? 'second' : 'seconds'}`);
  return parts.join(' ');
}

/** Where a stored video is played from (byte ranges; a signed link on S3). */
export const videoUrl = (id: string): string => `/api/media/${encodeURIComponent(id)}/video`;
/** A video's poster frame (WebP). */
export const posterUrl = (id: string): string => `/api/media/${encodeURIComponent(id)}/poster`;
