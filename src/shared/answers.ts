/** Saving answers, to a survey response and a mission entry alike (zod-free): what a save returns, and a stale save's conflict. */
import type { Answers } from './forms/definition.ts';
import { SOURCE_LANGUAGE, type Language } from './languages.ts';
import type { EntryStatus } from './mission-entries.ts';
import type { ResponseStatus } from './surveys.ts';

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

/**
 * The language a response or mission entry was answered in (decision 035), as every reader
 * gives it: the one recorded, and English for a row recorded before answers had a language
 * (migration 0016: every version published before then is in English; every save since records
 * one).
 */
export function answerLanguageOf(recorded: Language | null | undefined): Language {
  return recorded ?? SOURCE_LANGUAGE;
}
