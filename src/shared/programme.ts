/**
 * The programme's constants and answer types (projects, surveys, missions, mission groups, taking
 * part, media): no zod here, so participant screens can import them without it. The payload
 * schemas are in `schemas/programme.ts`.
 */
import type { Answers, FormDefinition } from './forms/definition.ts';

export const PROJECT_STATUSES = ['draft', 'live', 'closed', 'archived'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** Surveys and missions: `draft` (being prepared), `live` (open to members between its dates), `closed`. */
export const ACTIVITY_STATUSES = ['draft', 'live', 'closed'] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

export const SURVEY_KINDS = ['native', 'external'] as const;
export type SurveyKind = (typeof SURVEY_KINDS)[number];

/** What Alchemer sends back on the return URL. */
export const EXTERNAL_OUTCOMES = ['complete', 'screened_out', 'over_quota'] as const;
export type ExternalOutcome = (typeof EXTERNAL_OUTCOMES)[number];

export const REVIEW_MODES = ['manual', 'automatic'] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];

export const GROUP_UNLOCKS = ['all_open', 'in_order'] as const;
export type GroupUnlock = (typeof GROUP_UNLOCKS)[number];
export const GROUP_UNLOCK_ON = ['submitted', 'approved'] as const;
export type GroupUnlockOn = (typeof GROUP_UNLOCK_ON)[number];

/** A participant's survey, as they see it. */
export const SURVEY_STATES = ['upcoming', 'open', 'in_progress', 'submitted', 'closed'] as const;
export type SurveyState = (typeof SURVEY_STATES)[number];

export const RESPONSE_STATUSES = ['draft', 'submitted'] as const;
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];

/** A mission entry: a draft, then submitted, then reviewed (the review issue adds the reviewing). */
export const ENTRY_STATUSES = ['draft', 'submitted', 'approved', 'changes_requested', 'rejected'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

/** A mission inside a group, as the participant sees it. */
export const GROUP_MISSION_STATES = ['locked', 'open', 'in_progress', 'submitted', 'approved'] as const;
export type GroupMissionState = (typeof GROUP_MISSION_STATES)[number];

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
  timeZoneMax: 64,
} as const;

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

/** The query parameter Alchemer carries back and forth (`[url("pid")]`). */
export const EXTERNAL_PID_PARAM = 'pid';
/** Alchemer's merge code for the `pid` it captured as a Hidden Value (left unencoded in links, so Alchemer recognises it). */
export const ALCHEMER_PID_MERGE_CODE = `[url("${EXTERNAL_PID_PARAM}")]`;

// ---------------------------------------------------------------------------------------------
// Shapes of the answers (the API's JSON)

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

/** One return link per outcome Alchemer may send back (`docs/alchemer.md`). */
export type ExternalReturnLinks = Record<ExternalOutcome, string>;

/** An external survey's server-to-server confirmation (`POST /api/surveys/{id}/webhook`). */
export interface SurveyWebhook {
  configured: boolean;
  url: string;
}

/** `POST /api/admin/surveys/{id}/webhook-secret`: the new secret, shown this once. */
export interface SurveyWebhookSecret {
  secret: string;
  webhook: SurveyWebhook;
}

/** `POST /api/surveys/{id}/webhook`: the participant's outcome after the call, whether it is confirmed, and whether this call changed it. */
export interface SurveyWebhookResult {
  outcome: ExternalOutcome;
  confirmed: boolean;
  recorded: boolean;
}

export interface AdminSurvey {
  id: number;
  projectId: number;
  title: string;
  description: string;
  kind: SurveyKind;
  formId: number | null;
  formVersion: number | null;
  /** The form's latest published version (native surveys), to offer a move. */
  latestFormVersion: number | null;
  externalUrl: string | null;
  trustReturns: boolean;
  points: number;
  estimatedMinutes: number | null;
  opensAt: string | null;
  closesAt: string | null;
  status: ActivityStatus;
  counts: ActivityCounts;
  /** External surveys: the return link of each outcome (its own key `k`, `pid=[url("pid")]` last), ready to paste into Alchemer; null for native ones. */
  returnLinks: ExternalReturnLinks | null;
  /** External surveys: whether a webhook secret exists and the URL Alchemer's Webhook action posts to; null for native ones. */
  webhook: SurveyWebhook | null;
  createdAt: string;
  updatedAt: string;
}

export interface AdminMission {
  id: number;
  projectId: number;
  title: string;
  instructions: string;
  formId: number;
  formVersion: number;
  latestFormVersion: number | null;
  points: number;
  opensAt: string | null;
  closesAt: string | null;
  review: ReviewMode;
  entries: { min: number; max: number; perDay: number | null };
  status: ActivityStatus;
  counts: ActivityCounts;
  createdAt: string;
  updatedAt: string;
}

export interface AdminMissionGroup {
  id: number;
  projectId: number;
  title: string;
  description: string;
  missionIds: number[];
  unlock: GroupUnlock;
  unlockOn: GroupUnlockOn;
  createdAt: string;
  updatedAt: string;
}

/** One participant's answers to a native survey (admin results). */
export interface AdminSurveyResponse {
  id: number;
  user: UserRef;
  status: ResponseStatus;
  formVersion: number;
  answers: Answers;
  startedAt: string;
  updatedAt: string;
  submittedAt: string | null;
}

/** A mission entry in the admin lists (the review issue extends it). */
export interface AdminSubmission {
  id: number;
  user: UserRef;
  status: EntryStatus;
  formVersion: number;
  answers: Answers;
  localDate: string | null;
  createdAt: string;
  submittedAt: string | null;
  /** How many entries this participant has in this mission. */
  entriesOfUser?: number;
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
}

export interface HomeAnswer {
  todo: HomeItem[];
  submitted: HomeItem[];
  done: HomeItem[];
}

/** `GET /api/surveys/{id}`. */
export interface ParticipantSurvey {
  id: number;
  title: string;
  description: string;
  kind: SurveyKind;
  points: number;
  estimatedMinutes: number | null;
  projectName: string;
  opensAt: string | null;
  closesAt: string | null;
  state: SurveyState;
  outcome?: ExternalOutcome | null;
  /** Seeds the renderer's random option order: stable for this participant. */
  seed: string;
  form?: { version: number; definition: FormDefinition };
  /** `revision`: bumped by every save and submit; a save names the one it is based on. */
  response?: { answers: Answers; pageId: string | null; status: ResponseStatus; submittedAt: string | null; revision: number };
}

/** The answer of `PUT /api/surveys/{id}/response` and `PUT /api/missions/{id}/entries/{entryId}`. */
export interface AnswersSaved {
  status: ResponseStatus | EntryStatus;
  savedAt: string;
  /** The new revision: the next save is based on it. */
  revision: number;
}

/**
 * `current` of a 409 `conflict` (a save or submit based on a stale revision): what the server
 * holds now. `pageId` for survey responses only.
 */
export interface AnswersConflict {
  answers: Answers;
  pageId?: string | null;
  revision: number;
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
  /** Diaries: entries made on the participant's today (by the time zone they sent last), and whether one more may be added now. */
  canAddEntry: boolean;
  /** Why not, when `canAddEntry` is false (e.g. "You have made today's entry"). */
  addEntryBlockedReason?: string | null;
  /** Set when an `in_order` mission group holds this mission back (e.g. "Opens when you finish “Day 1”"). */
  lockedReason?: string | null;
  /** Daily limit reached: the participant's next local midnight, when one more entry may be made. */
  nextEntryAt?: string | null;
}

export interface ParticipantEntry {
  id: number;
  status: EntryStatus;
  answers: Answers;
  localDate: string | null;
  createdAt: string;
  submittedAt: string | null;
  /** The renderer's seed for this entry. */
  seed: string;
  /** Bumped by every save and submit (0 before the first save); a save names the one it is based on. */
  revision: number;
  /** The form version the entry was made on (pinned). */
  formVersion?: number;
  /** That version's form, only when it is not the mission's current one (`form` of the mission). */
  form?: { version: number; definition: FormDefinition };
}

/** `GET /api/mission-groups/{id}`. */
export interface ParticipantMissionGroup {
  id: number;
  title: string;
  description: string;
  projectName: string;
  unlock: GroupUnlock;
  unlockOn: GroupUnlockOn;
  missions: { id: number; title: string; points: number; closesAt: string | null; state: GroupMissionState; lockedReason?: string | null }[];
  /** Missions finished (submitted or approved, by `unlockOn`) out of all. */
  progress: { done: number; total: number };
}

/** `POST /api/media`. */
export interface MediaUploaded {
  id: string;
  url: string;
  thumbnailUrl: string;
  width: number;
  height: number;
  bytes: number;
}

// ---------------------------------------------------------------------------------------------
// Admin answers added with the admin API (lists, submissions, results)

/** A page of an admin list. */
export interface AdminPage<T> {
  items: T[];
  total: number;
}

/** `GET /api/admin/missions/{id}/submissions`: one entry in the list. */
export interface AdminSubmissionListItem {
  id: number;
  user: UserRef;
  status: EntryStatus;
  submittedAt: string | null;
  /** True when the entry was sent again after changes were asked for (the review issue fills it; false until then). */
  resubmission: boolean;
  localDate: string | null;
  createdAt: string;
  /** How many entries (any status) this participant has in this mission. */
  entriesOfUser: number;
}

/** A photo of a submission, as the admin screens show it. */
export interface SubmissionMedia {
  id: string;
  url: string;
  thumbnailUrl: string;
  width: number;
  height: number;
}

/** `GET /api/admin/submissions/{id}` (the review issue extends it with history, notes and probes). */
export interface AdminSubmissionDetail {
  id: number;
  missionId: number;
  projectId: number;
  user: UserRef;
  status: EntryStatus;
  formVersion: number;
  /** The definition of the entry's own form version. */
  definition: FormDefinition | null;
  answers: Answers;
  /** The photos named in the entry's photo answers (those that exist), in answer order. */
  media: SubmissionMedia[];
  localDate: string | null;
  createdAt: string;
  submittedAt: string | null;
  /** This participant's other entries in the mission, oldest first. */
  otherEntries: { id: number; status: EntryStatus; localDate: string | null; submittedAt: string | null }[];
}

/** Which responses the CSV export holds: `submitted` (default), `draft` or `all`. */
export const RESPONSE_EXPORT_STATUSES = ['submitted', 'draft', 'all'] as const;
export type ResponseExportStatus = (typeof RESPONSE_EXPORT_STATUSES)[number];

/** An option (or a rating/scale value, or a matrix column) with how many chose it. */
export interface OptionCount {
  id: string;
  label: string;
  count: number;
}

/** One question of a survey's results (`GET /api/admin/surveys/{id}/results`). */
export interface ElementSummary {
  id: string;
  type: string;
  title: string;
  /** Submitted responses that answer it. */
  answered: number;
  /** Choices and dropdowns (plus `_other` for "Other" answers), rating and scale values; rankings: times ranked first. */
  options?: OptionCount[];
  /** Ratings, scales, numbers: the mean of the answers (null when none). */
  average?: number | null;
  min?: number | null;
  max?: number | null;
  /** Matrices: per row, the count of each column. */
  rows?: { id: string; label: string; columns: OptionCount[] }[];
  /** Short and long texts: the 5 latest answers. */
  samples?: string[];
}

/** `GET /api/admin/surveys/{id}/results`: per-question summaries over submitted responses. */
export interface SurveyResults {
  /** Submitted responses (external surveys: participants returned `complete`). */
  submitted: number;
  elements: ElementSummary[];
}

/** The id of the "Other" pseudo-option in results (option ids cannot start with `_`). */
export const OTHER_OPTION_ID = '_other';
