/**
 * Native surveys as a participant takes them: the survey with its pinned form and their response,
 * autosave (one draft per survey and participant, resumed on any device), and one submit.
 */
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Answers } from '../../shared/forms/definition.ts';
import { answerLanguageOf, type AnswersConflict, type AnswersSaved } from '../../shared/answers.ts';
import type { Language } from '../../shared/languages.ts';
import { localizedItemTexts } from '../../shared/projects.ts';
import type { ExternalOutcome, ParticipantSurvey, SurveyState } from '../../shared/surveys.ts';
import { utcDate, utcMidnight } from '../../shared/calendar-day.ts';
import { REVISION_REQUIRED_MESSAGE } from '../../shared/schemas/answers.ts';
import type { Db } from '../db/index.ts';
import { preparedFor } from '../db/prepared.ts';
import { surveyExternalRefs, surveyResponses, type Survey, type SurveyResponse } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from './clock.ts';
import { creditSurvey } from './points.ts';
import { linkAnswerMedia } from './gallery.ts';
import { recordContribution } from './members.ts';
import { answerLanguage, answersError, availabilityOf, checkSubmission, formDefinition, type Availability, type Visible } from './participation.ts';
import { surveyResultsChanged } from './survey-results.ts';
import { recordWebhookEvent } from './webhooks.ts';

/** The seed of the renderer's random option order: stable for one participant of one survey. */
export function surveySeed(surveyId: number, userId: number): string {
  return `survey-${surveyId}-user-${userId}`;
}

/**
 * A participant's survey state: `submitted` once their response is submitted or any external
 * return came back; else `upcoming` / `closed` by the dates; else `in_progress` with a draft,
 * `open` without.
 */
export function surveyState(availability: Availability, responseStatus: SurveyResponse['status'] | null, outcome: ExternalOutcome | null): SurveyState {
  if (responseStatus === 'submitted' || outcome !== null) return 'submitted';
  if (availability !== 'open') return availability;
  return responseStatus === 'draft' ? 'in_progress' : 'open';
}

/** The 409s of taking part in a survey. */
export const SURVEY_ERRORS = {
  alreadySubmitted: () => new ApiError(409, 'already_submitted', 'You have already submitted this survey'),
  closed: () => new ApiError(409, 'closed', 'This survey is closed'),
  notOpen: () => new ApiError(409, 'not_open', 'This survey is not open yet'),
  notNative: () => new ApiError(409, 'not_native', 'This survey is answered on another site: use its start link'),
  /** A save or submit based on a stale revision: nothing changed; `current` is what the server holds. */
  conflict: (response: SurveyResponse | null) =>
    new ApiError(409, 'conflict', 'Your answers were changed on another device since this page loaded them', { details: { current: conflictView(response) } }),
  revisionRequired: () => new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { revision: [REVISION_REQUIRED_MESSAGE] } }),
} as const;

/** `current` of a 409 `conflict`: the response's answers, page and revision (revision 0: no response, e.g. removed meanwhile). */
function conflictView(response: SurveyResponse | null): AnswersConflict {
  return response ? { answers: response.answers, pageId: response.pageId, revision: response.revision } : { answers: {}, pageId: null, revision: 0 };
}

/** Why a save or submit statement changed no row: submitted meanwhile (409 `already_submitted`), else a stale revision (409 `conflict`). */
async function refusal(db: Db, surveyId: number, userId: number): Promise<ApiError> {
  const current = await findResponse(db, surveyId, userId);
  if (current?.status === 'submitted') return SURVEY_ERRORS.alreadySubmitted();
  return SURVEY_ERRORS.conflict(current);
}

/** The participant's response to a survey, or null. */
export async function findResponse(db: Db, surveyId: number, userId: number): Promise<SurveyResponse | null> {
  const [row] = await responseLookup(db).execute({ surveyId, userId });
  return row ?? null;
}

/** Every survey call reads the participant's response by its unique key: prepared once per database (decision 026). */
const responseLookup = preparedFor((db: Db) =>
  db
    .select()
    .from(surveyResponses)
    .where(and(eq(surveyResponses.surveyId, sql.placeholder('surveyId')), eq(surveyResponses.userId, sql.placeholder('userId'))))
    .prepare('survey_response'),
);

/** The first outcome returned for any of the participant's references to an external survey (earliest return), or null. */
export async function firstOutcome(db: Db, surveyId: number, userId: number): Promise<ExternalOutcome | null> {
  const [row] = await db
    .select({ outcome: surveyExternalRefs.outcome })
    .from(surveyExternalRefs)
    .where(and(eq(surveyExternalRefs.surveyId, surveyId), eq(surveyExternalRefs.userId, userId), isNotNull(surveyExternalRefs.outcome)))
    .orderBy(asc(surveyExternalRefs.returnedAt), asc(surveyExternalRefs.id))
    .limit(1);
  return row?.outcome ?? null;
}

/**
 * `GET /api/surveys/{id}` for a visible survey. Native surveys carry `form`: the version the
 * response pinned, else the survey's current one (left out while the survey is upcoming), and
 * `response` once one exists. External surveys carry `outcome`. The title and description are in
 * the participant's `language` (their account's) where translated, else as written.
 */
export async function participantSurvey(db: Db, clock: Clock, visible: Visible<Survey>, userId: number, language?: unknown): Promise<ParticipantSurvey> {
  const survey = visible.item;
  const availability = availabilityOf(survey, visible.projectStatus, clock.now());
  // The response and the survey's current form side by side: a response pins the current form unless it changed since.
  const [response, currentDefinition] = await Promise.all([
    survey.kind === 'native' ? findResponse(db, survey.id, userId) : null,
    survey.kind === 'native' && survey.formId !== null && survey.formVersion !== null ? formDefinition(db, survey.formId, survey.formVersion) : null,
  ]);
  const outcome = survey.kind === 'external' ? await firstOutcome(db, survey.id, userId) : null;
  const state = surveyState(availability, response?.status ?? null, outcome);
  const answer: ParticipantSurvey = {
    id: survey.id,
    ...localizedItemTexts({ title: survey.title, description: survey.description }, survey.translations, language),
    kind: survey.kind,
    points: survey.points,
    estimatedMinutes: survey.estimatedMinutes,
    projectName: visible.projectName,
    opensAt: survey.opensAt?.toISOString() ?? null,
    closesAt: survey.closesAt?.toISOString() ?? null,
    state,
    outcome,
    seed: surveySeed(survey.id, userId),
  };
  if (survey.kind === 'native' && survey.formId !== null && state !== 'upcoming') {
    const version = response?.formVersion ?? survey.formVersion;
    const definition = version === null ? null : version === survey.formVersion ? currentDefinition : await formDefinition(db, survey.formId, version);
    if (version !== null && definition) answer.form = { version, definition };
  }
  if (response) {
    answer.response = {
      answers: response.answers,
      pageId: response.pageId,
      status: response.status,
      submittedAt: response.submittedAt?.toISOString() ?? null,
      revision: response.revision,
      language: answerLanguageOf(response.language),
    };
  }
  return answer;
}

/** Refuses taking part unless the survey is open (409 `not_open` / `closed`). */
function requireOpen(availability: Availability): void {
  if (availability === 'upcoming') throw SURVEY_ERRORS.notOpen();
  if (availability === 'closed') throw SURVEY_ERRORS.closed();
}

/** A native survey's pinned form: the one its survey row names (the data model requires both for native surveys). */
function nativeForm(survey: Survey): { formId: number; formVersion: number } {
  if (survey.kind !== 'native') throw SURVEY_ERRORS.notNative();
  if (survey.formId === null || survey.formVersion === null) throw new Error(`native survey ${survey.id} has no form`);
  return { formId: survey.formId, formVersion: survey.formVersion };
}

/**
 * Autosave (`PUT /api/surveys/{id}/response`): the first save creates the draft (revision 1) and
 * pins the survey's current form version; later saves replace the answers and the page. Answers
 * are stored as sent (shape-checked by the route, never for completeness).
 *
 * Saves are optimistic (`docs/api.md`, "Taking part"): one statement checks the revision the
 * client sent and bumps it (`ON CONFLICT … DO UPDATE … WHERE revision = $sent`), so of two saves
 * based on one revision exactly one lands; the other is 409 `conflict` with the current answers
 * and changes nothing. Without a revision (allowed only while no response exists: 400 on
 * `revision` otherwise) a first save meeting a row made meanwhile is a 409 `conflict` too, never
 * an overwrite; revision 0 says "no response yet" and conflicts with any row.
 *
 * `language` (decision 035): one the pinned version offers (400 otherwise), recorded with the
 * answers; left out, the one recorded stays (a first save records the version's source language).
 */
export async function saveResponse(
  db: Db,
  clock: Clock,
  visible: Visible<Survey>,
  userId: number,
  input: { answers: Answers; pageId: string | null; revision?: number | undefined; language?: Language | undefined },
): Promise<AnswersSaved & { status: 'draft' }> {
  const survey = visible.item;
  const form = nativeForm(survey);
  const existing = await findResponse(db, survey.id, userId);
  if (existing?.status === 'submitted') throw SURVEY_ERRORS.alreadySubmitted();
  requireOpen(availabilityOf(survey, visible.projectStatus, clock.now()));
  if (existing && input.revision === undefined) throw SURVEY_ERRORS.revisionRequired();
  // The language is checked against the version the response is (or will be) pinned to.
  const version = existing?.formVersion ?? form.formVersion;
  const definition = await formDefinition(db, form.formId, version);
  if (!definition) throw new Error(`form ${form.formId} has no version ${version}`);
  const language = answerLanguage(definition, input.language);
  const now = clock.now();
  const values = {
    surveyId: survey.id,
    userId,
    formVersion: form.formVersion,
    answers: input.answers,
    pageId: input.pageId,
    language: language.first,
    revision: 1,
    status: 'draft' as const,
    startedAt: now,
    updatedAt: now,
  };
  // The save and the links of the photos its answers hold (the gallery) in one transaction.
  const saved = await db.transaction(async (tx) => {
    const insert = tx.insert(surveyResponses).values(values);
    const [row] =
      input.revision === undefined
        ? await insert
            .onConflictDoNothing({ target: [surveyResponses.surveyId, surveyResponses.userId] })
            .returning({ id: surveyResponses.id, revision: surveyResponses.revision })
        : await insert
            .onConflictDoUpdate({
              target: [surveyResponses.surveyId, surveyResponses.userId],
              set: {
                answers: input.answers,
                pageId: input.pageId,
                language: keptLanguage(language),
                updatedAt: now,
                revision: sql`${surveyResponses.revision} + 1`,
              },
              setWhere: and(eq(surveyResponses.status, 'draft'), eq(surveyResponses.revision, input.revision)),
            })
            .returning({ id: surveyResponses.id, revision: surveyResponses.revision });
    if (row) await linkAnswerMedia(tx, userId, { kind: 'response', projectId: survey.projectId, responseId: row.id }, input.answers);
    return row ?? null;
  });
  // Nothing written: a submit won in between, or the revision is stale.
  if (!saved) throw await refusal(db, survey.id, userId);
  return { status: 'draft', savedAt: now.toISOString(), revision: saved.revision };
}

/** A save's or submit's language on an existing response: the one sent, else the one recorded (a row from before 0016: the version's source). */
function keptLanguage(language: { sent: Language | null; first: Language }) {
  return language.sent ?? sql`coalesce(${surveyResponses.language}, ${language.first})`;
}

/** The server's UTC date, or the participant's `today` when it is within one day of it (a device a day ahead or behind). */
export function submitToday(now: Date, sent: string | undefined): string {
  const server = utcDate(now);
  if (!sent) return server;
  const difference = Math.abs(utcMidnight(sent).getTime() - utcMidnight(server).getTime());
  return Number.isFinite(difference) && difference <= 86_400_000 ? sent : server;
}

/**
 * Submit (`POST /api/surveys/{id}/response/submit`): validates the answers against the pinned
 * version (photos must be the participant's own media), stores the cleaned answers and marks the
 * response submitted, creating it when there was no draft. One statement decides: an insert, or
 * an update of a draft on the same version (and, when the client sent a revision, on that
 * revision), so of two submits at once exactly one wins (the other gets 409 `already_submitted`)
 * and a submit based on a stale revision is 409 `conflict` with the current answers. The
 * revision is optional here: a submit sends the whole answers the participant saw. The survey's
 * points are credited, available at once, in the same transaction (`creditSurvey`).
 * `language`: as for saves (`saveResponse`).
 */
export async function submitResponse(
  db: Db,
  clock: Clock,
  visible: Visible<Survey>,
  userId: number,
  input: { answers: Answers; today?: string | undefined; revision?: number | undefined; language?: Language | undefined },
): Promise<{ status: 'submitted' }> {
  const survey = visible.item;
  const form = nativeForm(survey);
  // A second pass only when the draft's version changed under us (created by a concurrent autosave on another version).
  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = await findResponse(db, survey.id, userId);
    if (existing?.status === 'submitted') throw SURVEY_ERRORS.alreadySubmitted();
    const now = clock.now();
    requireOpen(availabilityOf(survey, visible.projectStatus, now));
    if (existing && input.revision !== undefined && existing.revision !== input.revision) throw SURVEY_ERRORS.conflict(existing);
    const version = existing?.formVersion ?? form.formVersion;
    const definition = await formDefinition(db, form.formId, version);
    if (!definition) throw new Error(`form ${form.formId} has no version ${version}`);
    const language = answerLanguage(definition, input.language);
    const checked = await checkSubmission(db, userId, definition, input.answers, submitToday(now, input.today));
    if (Object.keys(checked.errors).length > 0) throw answersError(checked.errors);
    const submitted = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(surveyResponses)
        .values({
          surveyId: survey.id,
          userId,
          formVersion: version,
          answers: checked.answers,
          language: language.first,
          revision: 1,
          status: 'submitted',
          startedAt: now,
          updatedAt: now,
          submittedAt: now,
        })
        .onConflictDoUpdate({
          target: [surveyResponses.surveyId, surveyResponses.userId],
          set: {
            answers: checked.answers,
            language: keptLanguage(language),
            status: 'submitted',
            updatedAt: now,
            submittedAt: now,
            revision: sql`${surveyResponses.revision} + 1`,
          },
          setWhere: and(
            eq(surveyResponses.status, 'draft'),
            eq(surveyResponses.formVersion, version),
            input.revision === undefined ? undefined : eq(surveyResponses.revision, input.revision),
          ),
        })
        .returning({ id: surveyResponses.id });
      if (!row) return false;
      await linkAnswerMedia(tx, userId, { kind: 'response', projectId: survey.projectId, responseId: row.id }, checked.answers);
      await recordContribution(tx, survey.projectId, userId, now);
      await creditSurvey(tx, clock, survey, userId);
      await recordWebhookEvent(
        tx,
        'survey_response.submitted',
        { projectId: survey.projectId, surveyId: survey.id, responseId: row.id, userId },
        survey.projectId,
      );
      return true;
    });
    if (submitted) {
      // The survey's results show this response at the next call of this process (docs/api.md, "Results").
      surveyResultsChanged(db, survey.id);
      return { status: 'submitted' };
    }
  }
  const latest = await findResponse(db, survey.id, userId);
  if (latest?.status === 'submitted') throw SURVEY_ERRORS.alreadySubmitted();
  if (input.revision !== undefined && latest?.revision !== input.revision) throw SURVEY_ERRORS.conflict(latest);
  throw new ApiError(409, 'conflict', 'This survey changed while you were answering it; reload it and try again', {
    details: { current: conflictView(latest) },
  });
}
