/**
 * Surveys (zod-free: participant screens import it): native and external (Alchemer) surveys, the
 * participant's responses, admin results and exports. Payload schemas: `schemas/surveys.ts`.
 */
import type { Answers, FormDefinition } from './forms/definition.ts';
import type { Language } from './languages.ts';
import type { ActivityCounts, ActivityStatus, ItemTranslations, UserRef } from './projects.ts';

export const SURVEY_KINDS = ['native', 'external'] as const;

export type SurveyKind = (typeof SURVEY_KINDS)[number];

/** What Alchemer sends back on the return URL. */
export const EXTERNAL_OUTCOMES = ['complete', 'screened_out', 'over_quota'] as const;

export type ExternalOutcome = (typeof EXTERNAL_OUTCOMES)[number];

/** A participant's survey, as they see it. */
export const SURVEY_STATES = ['upcoming', 'open', 'in_progress', 'submitted', 'closed'] as const;

export type SurveyState = (typeof SURVEY_STATES)[number];

export const RESPONSE_STATUSES = ['draft', 'submitted'] as const;

export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];

/** The query parameter Alchemer carries back and forth (`[url("pid")]`). */
export const EXTERNAL_PID_PARAM = 'pid';

/** Alchemer's merge code for the `pid` it captured as a Hidden Value (left unencoded in links, so Alchemer recognises it). */
export const ALCHEMER_PID_MERGE_CODE = `[url("${EXTERNAL_PID_PARAM}")]`;

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
  /** The title's and description's translations (decision 035), `{ title?: { de?: "…" }, description?: … }`. */
  translations: ItemTranslations;
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

/** One participant's answers to a native survey (admin results). */
export interface AdminSurveyResponse {
  id: number;
  user: UserRef;
  status: ResponseStatus;
  formVersion: number;
  answers: Answers;
  /** The language the answers were last saved or submitted in (decision 035). */
  language: Language;
  startedAt: string;
  updatedAt: string;
  submittedAt: string | null;
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
  /**
   * `revision`: bumped by every save and submit; a save names the one it is based on. `language`:
   * the language the answers were last saved or submitted in (decision 035; the server always
   * sends it).
   */
  response?: { answers: Answers; pageId: string | null; status: ResponseStatus; submittedAt: string | null; revision: number; language?: Language | null };
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
  /** When these results were computed (ISO): at most 5 s before, up to 60 s for a survey slow to aggregate (docs/api.md, "Results"). */
  computedAt: string;
}

/** The id of the "Other" pseudo-option in results (option ids cannot start with `_`). */
export const OTHER_OPTION_ID = '_other';
