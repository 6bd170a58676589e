/**
 * Projects and what is common to the activities inside them (zod-free: participant screens import
 * it): project and activity statuses, the programme's limits, members, the admin lists' pages and
 * the participant's home. Surveys, missions, mission groups, mission entries and media have their
 * own modules; payload schemas: `schemas/projects.ts`.
 */

import type { HomeAnnouncement } from './announcements.ts';
import { isLanguage, type Language } from './languages.ts';

export const PROJECT_STATUSES = ['draft', 'live', 'closed', 'archived'] as const;

export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** Surveys and missions: `draft` (being prepared), `live` (open to members between its dates), `closed`. */
export const ACTIVITY_STATUSES = ['draft', 'live', 'closed'] as const;

export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

export const PROGRAMME_LIMITS = {
  nameMax: 200,
  titleMax: 200,
  clientMax: 200,
  descriptionMax: 10_000,
  instructionsMax: 50_000,
  pointsMax: 100_000,
  estimatedMinutesMax: 600,
  entriesMax: 366,
  perDayMax: 50,
  /** Emails pasted or uploaded in one call to add members. */
  membersPerCall: 5_000,
  urlMax: 2_000,
} as const;

export interface UserRef {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
}

export interface ActivityCounts {
  /** Members of the project. */
  members: number;
  /** Members who started (a draft or more). */
  started: number;
  /** Members who submitted (surveys: submitted or returned complete; missions: finished). */
  submitted: number;
}

export interface AdminProjectListItem {
  id: number;
  name: string;
  client: string;
  status: ProjectStatus;
  startsAt: string | null;
  endsAt: string | null;
  counts: { members: number; surveys: number; missions: number; missionGroups: number };
  updatedAt: string;
}

export interface AdminProject {
  id: number;
  name: string;
  client: string;
  description: string;
  status: ProjectStatus;
  startsAt: string | null;
  endsAt: string | null;
  createdAt: string;
  updatedAt: string;
  counts: { members: number; surveys: number; missions: number; missionGroups: number };
}

export interface ProjectMember {
  userId: number;
  email: string;
  firstName: string;
  lastName: string;
  status: 'invited' | 'active' | 'disabled';
  addedAt: string;
}

export interface AddMembersResult {
  added: string[];
  alreadyMembers: string[];
  unknown: string[];
  /** What was not an email address at all. */
  invalid: string[];
  /** Unknown addresses that were invited (when `invite: true`). */
  invited?: string[];
}

/** Home (`GET /api/home`). */
export interface HomeItem {
  kind: 'survey' | 'mission' | 'mission_group';
  id: number;
  title: string;
  projectName: string;
  points: number;
  closesAt: string | null;
  estimatedMinutes?: number | null;
  /** 0…1 where it means something (a started survey's pages, a diary's entries, a group's missions). */
  progress?: number | null;
  /** The participant's state of it (survey state, entry summary, group summary), for the card's label. */
  state?: string;
  /** When it opens (shown for `upcoming` items). */
  opensAt?: string | null;
  /** Missions taking more than one entry: the points are earned by each entry ("100 points an entry"). */
  pointsPerEntry?: boolean;
  /** Diaries (`isDiary`) only: entries made of the maximum, what today offers and the streak. */
  diary?: HomeDiary;
}

/** What a diary offers today, on home: add today's entry, go on with today's draft, or come back tomorrow. */
export type DiaryToday = 'add' | 'continue' | 'tomorrow';

/** A diary on home (`HomeItem.diary`). */
export interface HomeDiary {
  /** Finished entries (submitted or approved). */
  entries: number;
  /** The diary's maximum (`entries.max`). */
  max: number;
  /** The number of the next entry (entries made, any status, + 1): "Come back tomorrow for entry 2 of 7". */
  next: number;
  today: DiaryToday;
  /** Consecutive days with a finished entry, up to today (`diaryStreak`). */
  streak: number;
}

/** The three lists of home. */
export type HomeList = 'todo' | 'submitted' | 'done';

export interface HomeAnswer {
  todo: HomeItem[];
  submitted: HomeItem[];
  done: HomeItem[];
  /** The latest announcements of the participant's live projects, newest first (`ANNOUNCEMENT_LIMITS`). */
  announcements: HomeAnnouncement[];
  /** Moderators and admins only: how many mission entries wait for review (the staff card). */
  staff?: { reviewWaiting: number };
}

/**
 * A survey's or mission's own texts in other languages (decision 035): per field (`title`,
 * `description`, `instructions`), a map from language code to text. The row's own fields are the
 * texts as written; a participant's call answers them in the participant's language when present.
 */
export type ItemTranslations = Partial<Record<'title' | 'description' | 'instructions', Partial<Record<Language, string>>>>;

/** The texts of a survey or mission that may hold translations. */
export type ItemTextField = 'title' | 'description' | 'instructions';
/** Per kind, its translatable texts in the editor's order. */
export const ITEM_TEXT_FIELDS = { survey: ['title', 'description'], mission: ['title', 'instructions'] } as const satisfies Record<
  string,
  readonly ItemTextField[]
>;

/**
 * A survey's or mission's texts (any of `title`, `description`, `instructions`) as a participant
 * whose account language is `language` reads them: each in that language when it has a translation
 * (not blank) and a text as written, else as written (decision 035: never blank, never hidden).
 * `language` is taken as given by the account (anything but a known language code: as written).
 * The one place the participants' calls localize these texts (home, survey, mission, group, history).
 */
export function localizedItemTexts<T extends Partial<Record<ItemTextField, string>>>(
  texts: T,
  translations: ItemTranslations | null | undefined,
  language: unknown,
): T {
  if (!translations || !isLanguage(language)) return texts;
  const out: Partial<Record<ItemTextField, string>> = { ...texts };
  for (const field of ['title', 'description', 'instructions'] as const) {
    const source = texts[field];
    const text = translations[field]?.[language];
    if (typeof source === 'string' && source.trim() !== '' && typeof text === 'string' && text.trim() !== '') out[field] = text;
  }
  return out as T;
}
