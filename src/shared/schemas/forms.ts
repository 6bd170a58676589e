/**
 * The forms API's payloads (`/api/admin/forms`) and answers: the zod schemas the server checks
 * bodies with (the builder may use the same ones) and the response types the builder reads.
 */
import { z } from '../zod.ts';
import { FORM_LIMITS, formDraftSchema, type FormDefinition, type FormDraft } from '../forms/definition.ts';
import type { FormChange } from '../forms/index.ts';
import type { Language } from '../languages.ts';
import { listQuerySchema, type ListPage } from '../list.ts';
import { MESSAGES } from '../messages.ts';

/** A form's title: required, trimmed, at most 300 characters. */
export const FORM_TITLE_MAX_LENGTH = FORM_LIMITS.titleMax;

/** draft: never published; published: has at least one version; archived: deleted (kept for its answers). */
export const FORM_STATUSES = ['draft', 'published', 'archived'] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

export const FORM_SORTS = ['updated', 'title', 'created'] as const;
export type FormSort = (typeof FORM_SORTS)[number];

/** A form's title as a person types it. */
export const formTitleSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, { error: MESSAGES.required, abort: true })
  .max(FORM_TITLE_MAX_LENGTH, MESSAGES.tooLong);

/**
 * A draft definition in a body: `Required` when missing; otherwise `formDraftSchema`, each
 * problem prefixed with where it is (`pages.0.elements.2.id: …`) since field errors are keyed by
 * the body's top-level field only.
 */
export const formDraftFieldSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.required });
      return;
    }
    const result = formDraftSchema.safeParse(value);
    if (result.success) return;
    for (const issue of result.error.issues) {
      ctx.addIssue({ code: 'custom', message: issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message });
    }
  })
  .pipe(formDraftSchema);

/** `POST /api/admin/forms`: a title, and optionally a whole draft (its title is replaced by `title`). */
export const formCreateSchema = z.strictObject({
  title: formTitleSchema,
  definition: formDraftFieldSchema.optional(),
});
export type FormCreateInput = z.infer<typeof formCreateSchema>;

/** A form's draft revision as the builder last loaded or saved it. */
const revisionSchema = z.number({ error: MESSAGES.required }).int('Must be a positive integer').min(1, 'Must be a positive integer');

/** `PUT /api/admin/forms/{id}/draft`: the whole draft and the revision it was based on. */
export const formDraftSaveSchema = z.strictObject({
  definition: formDraftFieldSchema,
  revision: revisionSchema,
});
export type FormDraftSaveInput = z.infer<typeof formDraftSaveSchema>;

/**
 * `POST /api/admin/forms/{id}/publish`: `confirmBreaking: true` publishes changes that affect
 * answers already given; `revision` (optional) makes sure the draft published is the one the
 * builder shows (409 `stale_revision` otherwise).
 */
export const formPublishSchema = z.strictObject({
  confirmBreaking: z.boolean({ error: 'Must be true or false' }).optional(),
  revision: revisionSchema.optional(),
  /** Required when an offered language misses translations: those texts show in the source language (recorded on the version). */
  fallback: z.literal('source', { error: 'Must be "source"' }).optional(),
});
export type FormPublishInput = z.infer<typeof formPublishSchema>;

/** `GET /api/admin/forms?q=&page=&pageSize=&sort=&dir=&status=` (10 per page by default, docs/product.md §9). */
export const formListQuerySchema = listQuerySchema(FORM_SORTS).extend({
  /** Without it the list holds drafts and published forms, never archived ones. */
  status: z.enum(FORM_STATUSES, { error: MESSAGES.invalidEnumValue }).optional(),
});
export type FormListQuery = z.infer<typeof formListQuerySchema>;

// ---------------------------------------------------------------------------------------------
// Answers (JSON: dates are ISO strings)

/** A person named in an answer (who published, who saved last). */
export interface UserRef {
  id: number;
  firstName: string;
  lastName: string;
}

/** Where a form is used (surveys and missions; fed by their tables). */
export interface FormUse {
  kind: 'survey' | 'mission';
  id: number;
  title: string;
  projectId: number;
  status: string;
  /** The form version it uses. */
  version: number;
  /** True while it collects answers: such a use blocks archiving. */
  live: boolean;
}

/** One row of `GET /api/admin/forms`. */
export interface AdminFormListItem {
  id: number;
  title: string;
  status: FormStatus;
  /** The highest published version, null when never published. */
  latestVersion: number | null;
  createdAt: string;
  updatedAt: string;
  usedBy: FormUse[];
}

/** `GET /api/admin/forms`. */
export type AdminFormList = ListPage<AdminFormListItem>;

/** A published version in a form's history (without its definition). */
export interface FormVersionSummary {
  version: number;
  publishedAt: string;
  publishedBy: UserRef | null;
}

/** A form with its draft (`GET /api/admin/forms/{id}`, and the answer of create/duplicate/restore). */
export interface AdminForm {
  id: number;
  title: string;
  status: FormStatus;
  draft: FormDraft;
  /** Goes up by one at each draft save; send it back with the next save. */
  revision: number;
  /** Newest first. */
  versions: FormVersionSummary[];
  latestVersion: number | null;
  usedBy: FormUse[];
  createdAt: string;
  createdBy: UserRef | null;
  updatedAt: string;
  updatedBy: UserRef | null;
  archivedAt: string | null;
}

/** `GET /api/admin/forms/{id}/versions/{version}`: a frozen, published definition. */
export interface FormVersion {
  version: number;
  definition: FormDefinition;
  publishedAt: string;
  publishedBy: UserRef | null;
}

/** `PUT /api/admin/forms/{id}/draft` → 200. */
export interface FormDraftSaved {
  revision: number;
  title: string;
  updatedAt: string;
}

/** `POST /api/admin/forms/{id}/publish` → 201: the new version and its diff against the previous one ([] for version 1). */
export interface FormPublished {
  version: number;
  changes: FormChange[];
}

/**
 * `GET /api/admin/forms/{id}/changes`: the current draft against the latest version, for the
 * publish dialog. Publishing asks for `confirmBreaking` when `breaking && hasAnswers`.
 * `problems` (element id → messages) is there when the draft cannot be published yet; `changes`
 * is then [].
 */
export interface FormDraftChanges {
  changes: FormChange[];
  breaking: boolean;
  hasAnswers: boolean;
  latestVersion: number | null;
  problems?: Record<string, string[]>;
  /** Per offered language, how many texts have no translation (publishing then needs `fallback: "source"`). */
  missingTranslations: Partial<Record<Language, number>>;
}

/** 409 `missing_translations` (publish without `fallback`): per language, the texts without a translation. */
export interface MissingTranslationsError {
  missing: Partial<Record<Language, number>>;
}

/**
 * 409 `stale_revision` (draft save, publish with `revision`): someone saved since the builder
 * loaded the form. Carries the current draft so the builder can offer to keep either one.
 */
export interface StaleRevisionError {
  code: 'stale_revision';
  message: string;
  revision: number;
  draft: FormDraft;
  title: string;
  updatedAt: string;
  updatedBy: UserRef | null;
}

/** 409 `breaking_changes` (publish): the breaking changes; publish again with `confirmBreaking: true`. */
export interface BreakingChangesError {
  code: 'breaking_changes';
  message: string;
  changes: FormChange[];
}

/** 409 `in_use` (DELETE): the form is used by a live survey or mission. */
export interface FormInUseError {
  code: 'in_use';
  message: string;
  usedBy: FormUse[];
}
