/**
 * The gallery (`/admin/gallery`, docs/product.md §2): every photo a participant's answer holds,
 * newest first, for moderators and admins. Zod-free: the screen and the server share the limits,
 * the cursor and the answer types. Payload schemas: `schemas/gallery.ts`.
 */
import type { EntryStatus } from './mission-entries.ts';
import type { MediaKind } from './media.ts';

/** `GET /api/admin/gallery?limit=`: 40 photos a page unless asked, 1 to 100. */
export const GALLERY_PAGE = { default: 40, max: 100 } as const;

/**
 * Staff's tags on a photo: trimmed, lower-cased (so "Kitchen" and "kitchen" are one tag), no
 * empty ones, no duplicates, at most `tagsMax` tags of at most `tagLength` characters (the tag box
 * and the tag filter stop there as one types); the ZIP of selected photos holds 1 to `zipMax` of
 * them; the participant filter's text (part of a name or an email) is at most `participantLength`.
 */
export const GALLERY_LIMITS = { tagsMax: 20, tagLength: 40, zipMax: 200, participantLength: 200 } as const;

export const GALLERY_MESSAGES = {
  notFound: 'No such photo',
  badCursor: 'This cursor is not one the gallery gave: start again from the first page',
  conflict: 'The tags of this photo were changed by someone else since you opened it',
  tooManyTags: `At most ${GALLERY_LIMITS.tagsMax} tags`,
  tagTooLong: `A tag is at most ${GALLERY_LIMITS.tagLength} characters`,
  participantTooLong: `At most ${GALLERY_LIMITS.participantLength} characters`,
  zipTooMany: `At most ${GALLERY_LIMITS.zipMax} photos at a time`,
  zipUnknown: 'Some of these photos do not exist (any more)',
} as const;

/** A tag as stored: trimmed, inner runs of white space made one space, lower-cased. */
export function normalizeTag(tag: string): string {
  return tag.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Tags as stored: each normalized, empty ones dropped, duplicates dropped (first kept), in the given order. */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = normalizeTag(raw);
    if (tag === '' || seen.has(tag)) continue;
    seen.add(tag);
    out.push(tag);
  }
  return out;
}

/** Whether two tag lists hold the same tags (order and case aside). */
export function sameTags(a: readonly string[], b: readonly string[]): boolean {
  const left = normalizeTags(a).sort();
  const right = normalizeTags(b).sort();
  return left.length === right.length && left.every((tag, i) => tag === right[i]);
}

/**
 * Two moderators tagging one photo: the tags this one removed (`base` minus `mine`) go, the ones
 * they added (`mine` minus `base`) come, everything else of `current` stays.
 */
export function mergeTags(base: readonly string[], mine: readonly string[], current: readonly string[]): string[] {
  const baseSet = new Set(normalizeTags(base));
  const mineSet = new Set(normalizeTags(mine));
  const removed = new Set([...baseSet].filter((tag) => !mineSet.has(tag)));
  const added = [...mineSet].filter((tag) => !baseSet.has(tag));
  return normalizeTags([...current.filter((tag) => !removed.has(normalizeTag(tag))), ...added]);
}

/** The position after a photo in the gallery's order (newest first): its time and id. */
export interface GalleryCursor {
  createdAt: string;
  id: string;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** The opaque `cursor` of a position: base64url of `{createdAt ISO}|{id}`. */
export function encodeGalleryCursor(cursor: GalleryCursor): string {
  return toBase64Url(`${cursor.createdAt}|${cursor.id}`);
}

/** The position a `cursor` names, or null when it is not one `encodeGalleryCursor` made. */
export function decodeGalleryCursor(text: string): GalleryCursor | null {
  if (text.length === 0 || text.length > 200) return null;
  const decoded = fromBase64Url(text);
  if (decoded === null) return null;
  const bar = decoded.indexOf('|');
  if (bar < 0) return null;
  const createdAt = decoded.slice(0, bar);
  const id = decoded.slice(bar + 1);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(createdAt) || Number.isNaN(Date.parse(createdAt))) return null;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
  return { createdAt, id };
}

/**
 * Where a photo stands in its answer's versions (`services/entry-versions.ts` says what an entry's
 * current version is, for the gallery, its ZIP and the review exports alike):
 * - `current`: the answer's current version holds it (a mission entry's latest submitted version,
 *   or its draft before any submission; a survey response's answers);
 * - `unsubmitted`: only the participant's changes to a submitted entry, not submitted yet, hold it;
 * - `replaced`: no version the entry has now holds it (the participant replaced or removed it).
 * The gallery shows `current` photos unless asked for the others (`replaced=true`).
 */
export const GALLERY_VERSION_STATES = ['current', 'unsubmitted', 'replaced'] as const;
export type GalleryVersionState = (typeof GALLERY_VERSION_STATES)[number];

/** What the screens call a photo that is not in its answer's current version: its badge, the grid's line, the lightbox's sentence. */
export const GALLERY_VERSION_LABELS: Record<Exclude<GalleryVersionState, 'current'>, { badge: string; line: string; text: string }> = {
  replaced: {
    badge: 'Replaced',
    line: 'Replaced: not in the current version',
    text: 'The participant replaced this photo: the entry’s current version does not hold it.',
  },
  unsubmitted: {
    badge: 'Not submitted',
    line: 'Only in changes not submitted yet',
    text: 'Only the participant’s changes to this entry hold this photo, and they are not submitted yet: the entry’s current version does not hold it.',
  },
};

/** A photo or video in the gallery (`GET /api/admin/gallery`). */
export interface GalleryItem {
  id: string;
  /** `photo` or `video` (`?kind=` filters by it). */
  kind: MediaKind;
  /** The display image (`/api/media/{id}`), or the video (`/api/media/{id}/video`, byte ranges). */
  url: string;
  /** The photo's thumbnail, or the video's poster frame (`/api/media/{id}/poster`). */
  thumbnailUrl: string;
  /** A video's length (ms); null for photos. */
  durationMs: number | null;
  tags: string[];
  starred: boolean;
  /** The mission entry whose answers hold it; null for a survey response's photo. */
  entryId: number | null;
  missionId: number | null;
  /** The survey response whose answers hold it; null for a mission entry's photo. */
  responseId: number | null;
  surveyId: number | null;
  projectId: number;
  /** Who uploaded it (the participant). */
  userId: number;
  createdAt: string;
  width: number;
  height: number;
  thumbnailWidth: number;
  thumbnailHeight: number;
  /** The participant's name. */
  userName: string;
  projectName: string;
  /** The mission's or the survey's title. */
  sourceTitle: string;
  /** The entry's status; null for a survey photo. */
  entryStatus: EntryStatus | null;
  /** Whether the answer's current version holds the photo (`GALLERY_VERSION_STATES`). */
  versionState: GalleryVersionState;
}

/** `GET /api/admin/gallery`: one page, and the cursor of the next (null on the last). */
export interface GalleryPage {
  items: GalleryItem[];
  nextCursor: string | null;
}

/** A video's duration badge: `m:ss` (`h:mm:ss` from an hour), rounded to the second. */
export function formatClock(durationMs: number): string {
  const total = Math.max(0, Math.round(durationMs / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * The file name of a photo in the gallery's ZIP (and of its download): `{projectId}-{missionId}-{entryId}-{id}.jpg`
 * (survey photos: `{projectId}-survey{surveyId}-{responseId}-{id}`). In the ZIP, a photo not in its
 * answer's current version goes in a folder named for its `versionState` (`replaced/…`).
 */
export function galleryZipName(item: Pick<GalleryItem, 'id' | 'projectId' | 'missionId' | 'entryId' | 'surveyId' | 'responseId'>, extension: string): string {
  const middle = item.entryId !== null ? `${item.missionId ?? 0}-${item.entryId}` : `survey${item.surveyId ?? 0}-${item.responseId ?? 0}`;
  return `${item.projectId}-${middle}-${item.id}.${extension}`;
}

/** The gallery's filters as the address bar and the API query hold them (strings; empty = not set). */
export const GALLERY_FILTERS = ['projectId', 'missionId', 'userId', 'participant', 'state', 'replaced', 'tag', 'starred', 'kind', 'from', 'to'] as const;
export type GalleryFilter = (typeof GALLERY_FILTERS)[number];
export type GalleryFilters = Partial<Record<GalleryFilter, string>>;

/** The filters of a query string, those set only. */
export function galleryFiltersFrom(search: string | URLSearchParams): GalleryFilters {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const filters: GalleryFilters = {};
  for (const key of GALLERY_FILTERS) {
    const value = params.get(key)?.trim();
    if (value) filters[key] = value;
  }
  return filters;
}

/** The query string of filters (set ones only, in a fixed order), with `?` when not empty. */
export function galleryQuery(filters: GalleryFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const key of GALLERY_FILTERS) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}
