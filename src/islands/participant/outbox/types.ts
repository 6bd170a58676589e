/**
 * The local outbox's rows and their states (`docs/decisions/038-field-capture.md`, "The local
 * outbox"), without Dexie or tus: home and the form controls read these, the store and the sender
 * (loaded on the first capture or send) write them.
 */
import type { Answers } from '../../../shared/forms/definition.ts';

/**
 * Where a picked or recorded file stands: `saved` (its bytes are in IndexedDB, read back) →
 * `uploading` (progress 0..1) → `uploaded` (the last byte arrived; the server processes it) →
 * `ready` | `failed` (`reason` says why; "Try again" sends it again when `retry` allows).
 */
export const FILE_STATES = ['saved', 'uploading', 'uploaded', 'ready', 'failed'] as const;
export type FileState = (typeof FILE_STATES)[number];

export interface OutboxFile {
  /** The row's own id (random), also the `local-…` stand-in of the answer until the media id is known. */
  id: string;
  /** Whose it is: the participant's id (only they see it and only their session sends it). */
  owner: string;
  /** The question (form element id) and the form (`formKey`) it answers. */
  questionId: string;
  formKey: string;
  kind: 'photo' | 'video';
  blob: Blob;
  name: string;
  type: string;
  bytes: number;
  /** A video's length, read in the browser (null for photos). */
  durationMs: number | null;
  /** The tus upload's URL once created: a resume continues from its last byte. */
  uploadUrl: string | null;
  /** The media id (the upload URL's last segment) once the upload exists. */
  mediaId: string | null;
  state: FileState;
  progress: number;
  reason: string | null;
  /** Failed for good (refused: too large, not a photo): "Try again" would fail the same way. */
  final: boolean;
  /** Sending attempts since the last success or "Try again" (the backoff). */
  attempts: number;
  /** Not before this time (ms since epoch) is it tried again. */
  notBefore: number;
  createdAt: number;
}

/** A submit that could not reach the server (or waits for its files): sent by the sender with the same revision. */
export interface OutboxSubmit {
  id: string;
  /** Whose it is (as `OutboxFile.owner`). */
  owner: string;
  formKey: string;
  /** What home shows ("Kitchen mission"). */
  title: string;
  /** POST this first when set, to make the mission entry (`{id}` of its answer goes into `path`). */
  createPath: string | null;
  createBody: Record<string, unknown> | null;
  /** The submit's path; `{id}` is the created entry's id. */
  path: string;
  /** The body: `answers` may hold `local-…` stand-ins, replaced by media ids when their files are ready. */
  body: { answers: Answers; revision: number } & Record<string, unknown>;
  /** The localStorage key of the answers kept on the device, removed once the submit is accepted. */
  draftKey: string | null;
  state: 'waiting' | 'sending' | 'sent' | 'failed';
  reason: string | null;
  attempts: number;
  notBefore: number;
  createdAt: number;
}

/** A local file's stand-in in answers until its media id is known. */
export const LOCAL_PREFIX = 'local-';
export const localToken = (fileId: string): string => `${LOCAL_PREFIX}${fileId}`;
export const isLocalToken = (value: unknown): value is string => typeof value === 'string' && value.startsWith(LOCAL_PREFIX);

/** What home lists of the outbox: one line per file or submit still waiting, failed or being sent. */
export interface SummaryItem {
  id: string;
  /** Whose it is (as `OutboxFile.owner`): home lists only the signed-in participant's. */
  owner: string;
  what: 'photo' | 'video' | 'submit';
  name: string;
  state: FileState | OutboxSubmit['state'];
  progress: number;
  reason: string | null;
  /** "Try again" can help. */
  retry: boolean;
}

export interface OutboxSummary {
  items: SummaryItem[];
  updatedAt: number;
}
