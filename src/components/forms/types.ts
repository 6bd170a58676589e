/**
 * Types shared by the form renderer's parts and its callers.
 */
import type { Answers, AnswerValue, ElementOf, FormElement } from '../../shared/forms/definition.ts';
import type { fieldIds } from './form-utils.ts';

/** Where the thumbnail of a stored photo is (answers hold media ids only). */
export interface Thumbnails {
  thumbnailUrl(id: string): string;
}

/** What every field of one renderer shares. */
export interface FieldContext {
  /** Prefix of DOM ids (unique per renderer). */
  prefix: string;
  /** Fixes the random option order of this respondent. */
  seed: string;
  /** The respondent's day, `YYYY-MM-DD`. */
  today: string;
  disabled: boolean;
  /** Level of the page heading: element headings (statements) are one deeper. */
  headingLevel: 2 | 3;
  photos: PhotoUploads;
  /** The `lang` and `dir` of the renderer's own words (hints, messages) when the content is in another language; else empty. */
  ui?: { lang?: string; dir?: 'ltr' | 'rtl' };
}

/** The DOM ids of one element's parts. */
export type FieldIds = ReturnType<typeof fieldIds>;

/** Props of each element type's control. */
export interface ControlProps<E extends FormElement = FormElement> {
  element: E;
  value: AnswerValue | undefined;
  /** `undefined` removes the answer. */
  onChange(value: AnswerValue | undefined): void;
  ids: FieldIds;
  invalid: boolean;
  /** Ids that describe the control (description, hint, error), for single controls. */
  describedBy: string | undefined;
  required: boolean;
  ctx: FieldContext;
  /** A problem the control knows of before validation (text that is not a number), or null. */
  onIssue(message: string | null): void;
}

/** One file of a photo or video element. */
export interface PhotoItem {
  key: string;
  /** The file name ('' for photos stored before this visit). */
  name: string;
  /**
   * A store's row (`MediaStore`): `saving` (being copied into the device) → `saved` → `uploading` →
   * `uploaded` (being processed) → `ready` | `failed` (`retry` says whether "Try again" can help).
   * `done`: stored before this visit (in the answer, not in the store), or added to a staff preview.
   */
  status: 'saving' | 'saved' | 'uploading' | 'uploaded' | 'ready' | 'done' | 'failed';
  /** A failed item that "Try again" can help. */
  retry: boolean;
  /** 0 to 1 while uploading. */
  progress: number;
  /** The stored media id once uploaded. */
  mediaId: string | null;
  /** What the thumbnail shows: the stored thumbnail, or a local preview. */
  src: string | null;
  /** Why the upload failed (or waits). */
  error: string | null;
}

/** What the photo fields read and do. */
export interface PhotoUploads {
  items(elementId: string): PhotoItem[];
  /** A message about the last pick (limit reached, not a photo), or null. */
  notice(elementId: string): string | null;
  /** The last upload event, for a polite live region. */
  announcement(elementId: string): string;
  /** Adds picked or recorded files (`durationsMs`: each video's length, read in the browser). */
  add(element: ElementOf<'photo' | 'video'>, files: File[], durationsMs?: (number | null)[]): void;
  retry(elementId: string, key: string): void;
  remove(elementId: string, key: string): void;
  /** True while a file of the element is uploading (or being copied into the device). */
  pending(elementId: string): boolean;
  /** The answers with a stand-in for each file kept on the device whose media id is not known yet (to check and queue a submit). */
  complete(answers: Answers): Answers;
  /** Notes about the device's storage (space short, the iPhone 7-day rule), after the first capture. */
  notes(): string[];
}

/** One file of the participant's outbox, as the controls show it (`MediaStore`). */
export interface MediaRow {
  id: string;
  elementId: string;
  kind: 'photo' | 'video';
  name: string;
  state: 'saving' | 'saved' | 'uploading' | 'uploaded' | 'ready' | 'failed';
  progress: number;
  mediaId: string | null;
  reason: string | null;
  retry: boolean;
  /** A local preview (`blob:`) of a photo. */
  src: string | null;
}

/**
 * Where a renderer's photos and videos go: the participant screens' local outbox (kept on the
 * device first, then sent) or a staff preview's page (`preview-store.ts`). The renderer shows its
 * rows and keeps the answers' media ids in step with them.
 */
export interface MediaStore {
  /** A staff preview's store: nothing is sent, its rows show as added to the preview. */
  preview?: boolean;
  /** The rows of this form, per element, oldest first (the same object until something changes). */
  rows(): Readonly<Record<string, readonly MediaRow[]>>;
  subscribe(listener: () => void): () => void;
  /** Copies files into the device, then queues them; rejects with an Error whose message is shown. */
  add(elementId: string, kind: 'photo' | 'video', files: { file: File; durationMs: number | null }[]): Promise<void>;
  retry(id: string): void;
  remove(id: string): void;
  /** The stand-in of a row in answers until its media id is known. */
  token(id: string): string;
  thumbnailUrl(mediaId: string): string;
  notes(): string[];
}

/**
 * A renderer's photo and video fields: the store their files go through and the hook that follows
 * it (`useStoreUploads`). A screen hands them over with the parts a form asking for photos or
 * videos loads (the participant's `answers-form.tsx`, `preview-store.ts`'s `usePreviewMedia`);
 * a form without such fields needs none.
 */
export interface FormMedia<S extends MediaStore = MediaStore> {
  store: S;
  useUploads: UploadsHook;
}

/** The hook that keeps a renderer's photo and video fields and answers in step with a store (`useStoreUploads`). */
export type UploadsHook = (
  store: MediaStore,
  answerOf: (elementId: string) => AnswerValue | undefined,
  setAnswer: (elementId: string, value: AnswerValue | undefined) => void,
) => PhotoUploads;
