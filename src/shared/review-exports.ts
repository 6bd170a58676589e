/**
 * Review exports (`/admin/tools/export-reviews-unilever`, zod-free: the screen imports it): the
 * formats, the review fields a mission's form elements map to, the limits of the retail
 * platforms, the incentive disclosure and the answers' types. Payload schema:
 * `schemas/review-exports.ts`; rules: `src/server/services/review-exports.ts`;
 * decisions: `docs/decisions/017-review-exports.md`.
 */
import type { ElementType } from './forms/constants.ts';
import type { EntryStatus } from './mission-entries.ts';

/** `csv` and `xlsx`: Fieldwork's columns; `powerreviews`: their import CSV; `bazaarvoice`: their native content import XML. */
export const REVIEW_EXPORT_FORMATS = ['csv', 'xlsx', 'powerreviews', 'bazaarvoice'] as const;
export type ReviewExportFormat = (typeof REVIEW_EXPORT_FORMATS)[number];

export const REVIEW_EXPORT_FORMAT_LABELS: Readonly<Record<ReviewExportFormat, string>> = {
  csv: 'CSV',
  xlsx: 'Excel',
  powerreviews: 'PowerReviews',
  bazaarvoice: 'Bazaarvoice',
};

/** The entry statuses an export may take: approved (the default) and, on request, submitted (not reviewed yet). */
export const REVIEW_EXPORT_STATES = ['approved', 'submitted'] as const satisfies readonly EntryStatus[];
export type ReviewExportState = (typeof REVIEW_EXPORT_STATES)[number];

/** The review fields a mission's form elements are mapped to. */
export const REVIEW_FIELDS = ['rating', 'title', 'text', 'recommend', 'photos'] as const;
export type ReviewField = (typeof REVIEW_FIELDS)[number];

export const REVIEW_FIELD_LABELS: Readonly<Record<ReviewField, string>> = {
  rating: 'Rating',
  title: 'Title',
  text: 'Review text',
  recommend: 'Would recommend',
  photos: 'Photos',
};

/** The fields every mapping must name (the others may be left out: null). */
export const REQUIRED_REVIEW_FIELDS: readonly ReviewField[] = ['rating', 'text'];

/**
 * The element types that fit each field: a rating from a rating (1…max), a scale or a number
 * (brought to whole stars 1–5); texts from text questions; "would recommend" from a choice whose
 * option reads yes or no, or a consent; photos from a photo question.
 */
export const REVIEW_FIELD_TYPES: Readonly<Record<ReviewField, readonly ElementType[]>> = {
  rating: ['rating', 'scale', 'number'],
  title: ['short_text', 'long_text'],
  text: ['long_text', 'short_text'],
  recommend: ['single_choice', 'dropdown', 'consent'],
  photos: ['photo'],
};

/** One mission's mapping: an element id (of the mission's form) per review field, or null. */
export type ReviewMapping = Record<ReviewField, string | null>;

/** How long a photo link in an export works (days): long enough for the platform to fetch the photos. */
export const SHARED_PHOTO_LINK_DAYS = 30;

/** Rows the preview shows. */
export const REVIEW_PREVIEW_ROWS = 20;

/** Most missions in one export. */
export const REVIEW_EXPORT_MAX_MISSIONS = 50;

/** Most characters of a Bazaarvoice campaign id. */
export const CAMPAIGN_ID_MAX = 100;

/** PowerReviews' import CSV, header in order. */
export const POWERREVIEWS_HEADER = [
  'Review Id',
  'Page Id',
  'Review Display',
  'Review Title',
  'Review Date',
  'Review Location',
  'Review Text',
  'Rating',
  'Verified Buyer',
  'Review Status',
] as const;

/** PowerReviews' length limits (characters) on their columns. */
export const POWERREVIEWS_LIMITS = {
  'Page Id': 50,
  'Review Display': 40,
  'Review Title': 60,
  'Review Location': 40,
} as const;

/** Fieldwork's own columns (`csv`, `xlsx`), in order. */
export const REVIEW_EXPORT_HEADER = [
  'Review id',
  'Entry id',
  'Mission id',
  'Product id',
  'Rating',
  'Title',
  'Review text',
  'Would recommend',
  'Photos',
  'Reviewer',
  'Region',
  'Submitted at',
  'Status',
  'Incentivized',
  'Disclosure',
] as const;

/**
 * Said on every review given for points, one by one (a blanket statement on the site is not
 * enough for the retail platforms' authenticity rules nor for consumer law).
 */
export const INCENTIVE_DISCLOSURE = 'This reviewer received points from the Fieldwork research community for this review.';

/** One review as the preview shows it (and as every format is written from). */
export interface ReviewExportRow {
  /** `fw-{entryId}`: stable across exports, so a platform sees an export again as the same reviews. */
  reviewId: string;
  entryId: number;
  missionId: number;
  productId: string | null;
  /** Whole stars 1–5, or null when the answer is missing or not a number. */
  rating: number | null;
  title: string;
  text: string;
  recommend: boolean | null;
  /** Signed links that work without a Fieldwork session until they expire. */
  photos: string[];
  /** `fw-user-{id}`: the same reviewer across reviews and exports (Bazaarvoice's user profile reference). */
  reviewerId: string;
  /** First name and initial of the last name (`Robin H.`). */
  nickname: string;
  region: string;
  /** ISO 8601 (UTC) of the entry's latest submission. */
  submittedAt: string;
  status: ReviewExportState;
  incentivized: boolean;
  /** `INCENTIVE_DISCLOSURE` when incentivized, else empty. */
  disclosure: string;
}

/** A problem with a row (`row` is 1-based in export order) or with the request (`row` 0). */
export interface ReviewExportProblem {
  row: number;
  field: string;
  message: string;
}

/** `POST /api/admin/tools/export-reviews?preview=1`. */
export interface ReviewExportPreview {
  rows: ReviewExportRow[];
  problems: ReviewExportProblem[];
  /** Reviews the export holds. */
  total: number;
}

/** A form element a field can be mapped to. */
export interface ReviewExportElement {
  id: string;
  type: ElementType;
  title: string;
}

/** `GET /api/admin/tools/export-reviews/projects/{id}/missions`: one mission. */
export interface ReviewExportMission {
  id: number;
  title: string;
  status: string;
  productId: string | null;
  points: number;
  formVersion: number;
  /** The answerable elements of the mission's form version, in form order. */
  elements: ReviewExportElement[];
  /** A first guess per field by element type (`defaultMapping`). */
  defaults: ReviewMapping;
}

/** `GET /api/admin/tools/export-reviews/history`: one export made. */
export interface ReviewExportRecord {
  id: number;
  projectId: number | null;
  projectName: string | null;
  format: string;
  rows: number;
  filters: Record<string, unknown>;
  createdAt: string;
  createdBy: { id: number; firstName: string; lastName: string; email: string } | null;
}

/** The elements that fit a field, in form order. */
export function elementsFor(field: ReviewField, elements: readonly ReviewExportElement[]): ReviewExportElement[] {
  return elements.filter((element) => REVIEW_FIELD_TYPES[field].includes(element.type));
}

/**
 * The first guess of a mapping: the first rating (else scale, number), the first short text for
 * the title, the first long text for the review (else a short text the title did not take), the
 * first choice or consent for "would recommend", the first photo question.
 */
export function defaultMapping(elements: readonly ReviewExportElement[]): ReviewMapping {
  const firstOf = (types: readonly ElementType[], except: readonly (string | null)[] = []) => {
    for (const type of types) {
      const found = elements.find((element) => element.type === type && !except.includes(element.id));
      if (found) return found.id;
    }
    return null;
  };
  const title = firstOf(['short_text']);
  return {
    rating: firstOf(REVIEW_FIELD_TYPES.rating),
    title,
    text: firstOf(['long_text', 'short_text'], [title]),
    recommend: firstOf(REVIEW_FIELD_TYPES.recommend),
    photos: firstOf(['photo']),
  };
}

/** `Robin H.`: the first name and the initial of the last name (either may be missing). */
export function reviewerNickname(firstName: string, lastName: string): string {
  const first = firstName.trim();
  const initial = Array.from(lastName.trim())[0];
  const nickname = [first, initial ? `${initial.toUpperCase()}.` : ''].filter(Boolean).join(' ');
  return nickname || 'Fieldwork member';
}
