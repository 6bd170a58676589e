/**
 * Types shared by the form renderer's parts and its callers.
 */
import type { AnswerValue, ElementOf, FormElement } from '../../shared/forms/definition.ts';
import type { fieldIds } from './form-utils.ts';

/** Where photos go: the survey and mission screens upload to the API; the builder's preview has none. */
export interface PhotoAdapter {
  /** Uploads one file; resolves with the stored media. Reject with an Error whose message is shown: an `UploadRefused` (`photo-uploads.ts`) when retrying cannot help. */
  upload(file: File, options: { onProgress(fraction: number): void; signal: AbortSignal }): Promise<{ id: string; thumbnailUrl: string }>;
  /** Where the thumbnail of an already stored media id is (answers hold ids only). */
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

/** One file of a photo element. */
export interface PhotoItem {
  key: string;
  /** The file name ('' for photos stored before this visit). */
  name: string;
  /** `failed`: Retry may succeed (network, server); `refused`: the file itself was refused (reason in `error`), Remove only. */
  status: 'uploading' | 'done' | 'failed' | 'refused';
  /** 0 to 1 while uploading. */
  progress: number;
  /** The stored media id once uploaded. */
  mediaId: string | null;
  /** What the thumbnail shows: the stored thumbnail, or a local preview. */
  src: string | null;
  /** Why the upload failed. */
  error: string | null;
  file: File | null;
}

/** What the photo fields read and do. */
export interface PhotoUploads {
  items(elementId: string): PhotoItem[];
  /** A message about the last pick (limit reached, not a photo), or null. */
  notice(elementId: string): string | null;
  /** The last upload event, for a polite live region. */
  announcement(elementId: string): string;
  add(element: ElementOf<'photo'>, files: File[]): void;
  retry(elementId: string, key: string): void;
  remove(elementId: string, key: string): void;
  /** True while a file of the element is uploading. */
  pending(elementId: string): boolean;
}
