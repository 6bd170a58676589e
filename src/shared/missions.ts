/**
 * Missions (zod-free: participant screens import it): the admin's and the participant's view of a
 * mission. Its entries: `mission-entries.ts`; payload schemas: `schemas/missions.ts`.
 */
import type { FormDefinition } from './forms/definition.ts';
import type { ParticipantEntry } from './mission-entries.ts';
import type { ActivityCounts, ActivityStatus, ItemTranslations } from './projects.ts';

export const REVIEW_MODES = ['manual', 'automatic'] as const;

export type ReviewMode = (typeof REVIEW_MODES)[number];

export interface AdminMission {
  id: number;
  projectId: number;
  title: string;
  instructions: string;
  /** The title's and instructions' translations (decision 035), `{ title?: { de?: "…" }, instructions?: … }`. */
  translations: ItemTranslations;
  formId: number;
  formVersion: number;
  latestFormVersion: number | null;
  points: number;
  /** The product a product-review mission is about (GTIN, EAN or SKU), for review exports; null: none. */
  productId: string | null;
  opensAt: string | null;
  closesAt: string | null;
  review: ReviewMode;
  entries: { min: number; max: number; perDay: number | null };
  status: ActivityStatus;
  counts: ActivityCounts;
  createdAt: string;
  updatedAt: string;
}

/** `GET /api/missions/{id}`. */
export interface ParticipantMission {
  id: number;
  title: string;
  instructions: string;
  points: number;
  projectName: string;
  opensAt: string | null;
  closesAt: string | null;
  /** `upcoming`, `open` or `closed` by the mission's dates and status. */
  availability: 'upcoming' | 'open' | 'closed';
  review: ReviewMode;
  entries: { min: number; max: number; perDay: number | null };
  form: { version: number; definition: FormDefinition };
  myEntries: ParticipantEntry[];
  /** Whether one more entry may be added now (diaries: by the entries that take up the participant's today in their time zone). */
  canAddEntry: boolean;
  /** Why not, when `canAddEntry` is false (e.g. "You have made today's entry"). */
  addEntryBlockedReason?: string | null;
  /** Set when an `in_order` mission group holds this mission back (e.g. "Opens when you finish “Day 1”"). */
  lockedReason?: string | null;
  /** Daily limit reached: the participant's next local midnight, when one more entry may be made. */
  nextEntryAt?: string | null;
  /**
   * A limit reached with a draft among the entries it counts (today's draft for the daily limit,
   * e.g. after a submit that failed offline): that draft, which is not made yet — the screen offers
   * to continue and submit it ("You have a draft for today — continue and submit it.").
   */
  draftEntryId?: number | null;
  /**
   * The daily limit is reached only because the participant changed time zone (a new zone opens no
   * day already used): `entryDay`, the day of their entry that falls on today in `timeZone`.
   */
  zoneChange?: { entryDay: string; timeZone: string } | null;
}
