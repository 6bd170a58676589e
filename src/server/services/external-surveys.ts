/**
 * The Alchemer bridge. `start` hands the participant an opaque reference (`pid`, 256 random bits,
 * base64url) in the survey's URL; only its SHA-256 is stored, with (survey, user). Alchemer
 * carries it back on the return URL with an outcome; the first outcome of a reference is kept,
 * later returns change nothing. The reference never holds the user's id or email.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { EXTERNAL_OUTCOMES, EXTERNAL_PID_PARAM, type ExternalOutcome } from '../../shared/programme.ts';
import type { Db } from '../db/index.ts';
import { surveyExternalRefs, surveys, type Survey } from '../db/schema/index.ts';
import type { Clock } from './clock.ts';
import { randomToken, sha256Hex } from './crypto.ts';
import { availabilityOf, type Visible } from './participation.ts';
import { creditExternalSurvey } from './points.ts';
import { firstOutcome } from './survey-responses.ts';

/** Bytes of a reference: 256 bits (at least 128 are required). */
export const PID_BYTES = 32;

/** The survey's URL with `pid=<reference>` set: its other query parameters and fragment kept as they are, an existing `pid` replaced. */
export function withPid(externalUrl: string, pid: string): string {
  const hashAt = externalUrl.indexOf('#');
  const beforeHash = hashAt >= 0 ? externalUrl.slice(0, hashAt) : externalUrl;
  const hash = hashAt >= 0 ? externalUrl.slice(hashAt) : '';
  const queryAt = beforeHash.indexOf('?');
  const base = queryAt >= 0 ? beforeHash.slice(0, queryAt) : beforeHash;
  const query = queryAt >= 0 ? beforeHash.slice(queryAt + 1) : '';
  const nameOf = (part: string) => {
    const name = part.split('=')[0] ?? '';
    try {
      return decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      return name;
    }
  };
  const kept = query.split('&').filter((part) => part !== '' && nameOf(part) !== EXTERNAL_PID_PARAM);
  kept.push(`${EXTERNAL_PID_PARAM}=${encodeURIComponent(pid)}`);
  return `${base}?${kept.join('&')}${hash}`;
}

/** Where `GET /api/surveys/{id}/start` sends the participant. */
export type StartResult = { kind: 'external'; location: string } | { kind: 'survey_page'; location: string };

/**
 * Starts an external survey for a participant who may see it: a new reference and the survey's
 * URL with it, while the survey is open and they have not returned from it yet; otherwise back to
 * `/surveys/{id}` (not open yet, closed, already returned, or a native survey), with no new reference.
 */
export async function startExternal(db: Db, clock: Clock, visible: Visible<Survey>, userId: number): Promise<StartResult> {
  const survey = visible.item;
  const surveyPage = { kind: 'survey_page', location: `/surveys/${survey.id}` } as const;
  if (survey.kind !== 'external' || !survey.externalUrl) return surveyPage;
  if (availabilityOf(survey, visible.projectStatus, clock.now()) !== 'open') return surveyPage;
  if ((await firstOutcome(db, survey.id, userId)) !== null) return surveyPage;
  const pid = randomToken(PID_BYTES);
  await db.insert(surveyExternalRefs).values({ surveyId: survey.id, userId, pidHash: sha256Hex(pid), createdAt: clock.now() });
  return { kind: 'external', location: withPid(survey.externalUrl, pid) };
}

/** True for the outcomes Alchemer may send (`complete`, `screened_out`, `over_quota`). */
export function isExternalOutcome(value: string): value is ExternalOutcome {
  return (EXTERNAL_OUTCOMES as readonly string[]).includes(value);
}

/** What a return did: the survey it belongs to and whether this return's outcome was recorded (false: one was already). */
export interface ReturnResult {
  surveyId: number;
  recorded: boolean;
}

/**
 * Records an Alchemer return: null for an unknown reference; otherwise the outcome is stored
 * only if the reference has none yet (`UPDATE … WHERE outcome IS NULL`), so the first wins.
 * A recorded `complete` that is the participant's outcome (their earliest return) credits the
 * survey's points in the same transaction: `pending` until the export confirms them, or
 * `available` when the survey trusts returns. `screened_out` and `over_quota` credit nothing.
 */
export async function recordReturn(db: Db, clock: Clock, pid: string, outcome: ExternalOutcome): Promise<ReturnResult | null> {
  const pidHash = sha256Hex(pid);
  const [ref] = await db
    .select({ id: surveyExternalRefs.id, surveyId: surveyExternalRefs.surveyId, userId: surveyExternalRefs.userId })
    .from(surveyExternalRefs)
    .where(eq(surveyExternalRefs.pidHash, pidHash));
  if (!ref) return null;
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(surveyExternalRefs)
      .set({ outcome, returnedAt: clock.now() })
      .where(and(eq(surveyExternalRefs.id, ref.id), isNull(surveyExternalRefs.outcome)))
      .returning({ id: surveyExternalRefs.id });
    const recorded = updated.length > 0;
    if (recorded && outcome === 'complete' && (await firstOutcome(tx, ref.surveyId, ref.userId)) === 'complete') {
      const [survey] = await tx
        .select({ id: surveys.id, title: surveys.title, points: surveys.points, trustReturns: surveys.trustReturns })
        .from(surveys)
        .where(eq(surveys.id, ref.surveyId));
      if (survey) await creditExternalSurvey(tx, clock, survey, ref.userId);
    }
    return { surveyId: ref.surveyId, recorded };
  });
}
