/**
 * The Alchemer bridge (`docs/alchemer.md` tells the whole flow). `start` hands the participant an
 * opaque reference (`pid`) in the survey's URL; only its SHA-256 is stored, with (survey, user).
 * Alchemer carries it back two ways:
 *
 * - the participant's browser, on one return link per outcome, each with its own key `k` derived
 *   from the survey's `return_key` (a link whose key is not its outcome's is refused);
 * - server to server, on the survey's webhook, authenticated by the survey's webhook secret: a
 *   confirmed outcome, which makes a `complete`'s pending points available.
 *
 * The first outcome per (survey, participant) is kept, decided under a transaction-scoped
 * advisory lock on (survey, participant), whatever the number of references. A return for someone
 * no longer a member, or after the survey stopped taking returns, is recorded and credits nothing.
 * The reference never holds the user's id or email.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { and, asc, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { ProjectStatus } from '../../shared/projects.ts';
import {
  ALCHEMER_PID_MERGE_CODE,
  EXTERNAL_OUTCOMES,
  EXTERNAL_PID_PARAM,
  type ExternalOutcome,
  type ExternalReturnLinks,
  type SurveyWebhook,
} from '../../shared/surveys.ts';
import { pointReference } from '../../shared/points.ts';
import type { Db } from '../db/index.ts';
import { projectMembers, projects, surveyExternalRefs, surveys, type Survey, type SurveyExternalRef } from '../db/schema/index.ts';
import type { Clock } from './clock.ts';
import { randomToken, sha256Hex } from './crypto.ts';
import { recordContribution } from './members.ts';
import { availabilityOf, type Visible } from './participation.ts';
import { creditExternalSurvey, findCredit, setCreditState } from './points.ts';
import { firstOutcome } from './survey-responses.ts';
import { recordWebhookEvent } from './webhooks.ts';

/** Bytes of a reference: 256 bits (HMAC-SHA256; at least 128 are required). */
export const PID_BYTES = 32;
/** Bytes of an outcome's return key `k`: 128 bits of HMAC-SHA256, base64url (22 characters). */
export const RETURN_KEY_BYTES = 16;
/** Bytes of a survey's `return_key` and of a webhook secret: 256 random bits, base64url (43 characters). */
export const SECRET_BYTES = 32;
/**
 * How long after its `closesAt` a survey still takes the returns of references started before it
 * closed (someone who started at 17:55 and finishes at 18:20 is credited).
 */
export const RETURN_GRACE_MS = 2 * 60 * 60 * 1000;
/** The query parameter of an outcome's key on the return links. */
export const RETURN_KEY_PARAM = 'k';
/** Alchemer's merge code for the `pid` URL variable: Alchemer puts the participant's reference there. */
export const PID_MERGE_CODE = ALCHEMER_PID_MERGE_CODE;

const hmac = (key: string, message: string) => createHmac('sha256', key).update(message).digest();

/** Constant-time string comparison (both sides hashed first, so their lengths never leak). */
export function safeEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** A new `return_key` for an external survey. */
export function newReturnKey(): string {
  return randomToken(SECRET_BYTES);
}

/** The key `k` of one outcome's return link: base64url(HMAC-SHA256(return_key, "return:" + outcome)), first 128 bits. */
export function outcomeKey(returnKey: string, outcome: ExternalOutcome): string {
  return hmac(returnKey, `return:${outcome}`).subarray(0, RETURN_KEY_BYTES).toString('base64url');
}

/** True when `k` is the key of this outcome for the survey's return key (constant time). */
export function checkOutcomeKey(returnKey: string | null, outcome: ExternalOutcome, k: string | undefined): boolean {
  if (!returnKey || !k || k.length > 100) return false;
  return safeEqual(k, outcomeKey(returnKey, outcome));
}

/** The reference of one row: base64url(HMAC-SHA256(return_key, "pid:" + id)), so a start can hand it out again. */
export function pidFor(returnKey: string, refId: number): string {
  return hmac(returnKey, `pid:${refId}`).toString('base64url');
}

/** One return link: `…/api/surveys/return?status=<outcome>&k=<key>&pid=[url("pid")]` (the merge code last, as Alchemer writes it). */
export function returnLink(publicUrl: string, returnKey: string, outcome: ExternalOutcome): string {
  return `${publicUrl}/api/surveys/return?status=${outcome}&${RETURN_KEY_PARAM}=${outcomeKey(returnKey, outcome)}&${EXTERNAL_PID_PARAM}=${PID_MERGE_CODE}`;
}

/** The three return links of a survey, ready to paste into Alchemer. */
export function returnLinks(publicUrl: string, returnKey: string): ExternalReturnLinks {
  return {
    complete: returnLink(publicUrl, returnKey, 'complete'),
    screened_out: returnLink(publicUrl, returnKey, 'screened_out'),
    over_quota: returnLink(publicUrl, returnKey, 'over_quota'),
  };
}

/** Where Alchemer's Webhook action posts, and whether the survey has a secret. */
export function webhookOf(publicUrl: string, survey: Pick<Survey, 'id' | 'webhookSecretHash'>): SurveyWebhook {
  return { configured: survey.webhookSecretHash !== null, url: `${publicUrl}/api/surveys/${survey.id}/webhook` };
}

/**
 * The survey's `return_key`, made now when it has none (surveys are given one when they are made
 * or turned external, and the migration gave the existing ones theirs; this is the safety net).
 * Two callers at once end with the same key (`coalesce`).
 */
export async function ensureReturnKey(db: Db, survey: Pick<Survey, 'id' | 'returnKey'>): Promise<string> {
  if (survey.returnKey) return survey.returnKey;
  const [row] = await db
    .update(surveys)
    .set({ returnKey: sql`coalesce(${surveys.returnKey}, ${newReturnKey()})` })
    .where(eq(surveys.id, survey.id))
    .returning({ returnKey: surveys.returnKey });
  if (!row?.returnKey) throw new Error(`survey ${survey.id}: no return key`);
  return row.returnKey;
}

/**
 * Makes (or replaces) the survey's webhook secret: only its SHA-256 is kept; the secret is
 * answered this once. Call it in the transaction of its audit row.
 */
export async function replaceWebhookSecret(db: Db, clock: Clock, surveyId: number): Promise<{ secret: string; survey: Survey }> {
  const secret = randomToken(SECRET_BYTES);
  const [survey] = await db
    .update(surveys)
    .set({ webhookSecretHash: sha256Hex(secret), updatedAt: clock.now() })
    .where(eq(surveys.id, surveyId))
    .returning();
  if (!survey) throw new Error(`survey ${surveyId}: gone`);
  return { secret, survey };
}

/** True when `secret` is the survey's webhook secret (constant time; false when none was made). */
export function checkWebhookSecret(secretHash: string | null, secret: string | undefined): boolean {
  if (!secretHash || !secret || secret.length > 200) return false;
  return safeEqual(sha256Hex(secret), secretHash);
}

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

/**
 * Serialises everything that decides a participant's outcome of one survey (starts, returns,
 * webhooks) until the transaction ends. The lock's key is a 64-bit hash of
 * `external-survey:{surveyId}:{userId}`, so it meets no other lock of the application.
 */
async function lockParticipant(tx: Db, surveyId: number, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`external-survey:${surveyId}:${userId}`}, 0))`);
}

/** Where `GET /api/surveys/{id}/start` sends the participant. */
export type StartResult = { kind: 'external'; location: string } | { kind: 'survey_page'; location: string };

/**
 * Starts an external survey for a participant who may see it, while the survey is open and they
 * have no outcome yet: their open reference (one without an outcome) when they have one, else a
 * new one, and the survey's URL with it. Otherwise back to `/surveys/{id}` (not open yet, closed,
 * already returned, or a native survey), with no new reference. Reloads hand out the same pid.
 */
export async function startExternal(db: Db, clock: Clock, visible: Visible<Survey>, userId: number): Promise<StartResult> {
  const survey = visible.item;
  const surveyPage = { kind: 'survey_page', location: `/surveys/${survey.id}` } as const;
  if (survey.kind !== 'external' || !survey.externalUrl) return surveyPage;
  if (availabilityOf(survey, visible.projectStatus, clock.now()) !== 'open') return surveyPage;
  const returnKey = await ensureReturnKey(db, survey);
  const pid = await db.transaction(async (tx) => {
    await lockParticipant(tx, survey.id, userId);
    if ((await firstOutcome(tx, survey.id, userId)) !== null) return null;
    const open = await tx
      .select({ id: surveyExternalRefs.id, pidHash: surveyExternalRefs.pidHash })
      .from(surveyExternalRefs)
      .where(and(eq(surveyExternalRefs.surveyId, survey.id), eq(surveyExternalRefs.userId, userId), isNull(surveyExternalRefs.outcome)))
      .orderBy(desc(surveyExternalRefs.id));
    // References made before pids were derived (random ones) cannot be handed out again: skipped.
    for (const ref of open) {
      const again = pidFor(returnKey, ref.id);
      if (sha256Hex(again) === ref.pidHash) return again;
    }
    // The pid derives from the row's id: the row is made with a placeholder hash (never a hex
    // digest, so it matches no pid), then given its real one in the same transaction.
    const [created] = await tx
      .insert(surveyExternalRefs)
      .values({ surveyId: survey.id, userId, pidHash: `pending:${randomToken(16)}`, createdAt: clock.now() })
      .returning({ id: surveyExternalRefs.id });
    if (!created) throw new Error('insert returned no row');
    const fresh = pidFor(returnKey, created.id);
    await tx
      .update(surveyExternalRefs)
      .set({ pidHash: sha256Hex(fresh) })
      .where(eq(surveyExternalRefs.id, created.id));
    return fresh;
  });
  if (pid === null) return surveyPage;
  return { kind: 'external', location: withPid(survey.externalUrl, pid) };
}

/** True for the outcomes Alchemer may send (`complete`, `screened_out`, `over_quota`). */
export function isExternalOutcome(value: string): value is ExternalOutcome {
  return (EXTERNAL_OUTCOMES as readonly string[]).includes(value);
}

/** A reference found by its pid, with what checking a return needs. */
export interface FoundReference {
  refId: number;
  surveyId: number;
  returnKey: string | null;
}

/** The reference of a pid (by its SHA-256), or null. */
export async function findReference(db: Db, pid: string): Promise<FoundReference | null> {
  const [row] = await db
    .select({ refId: surveyExternalRefs.id, surveyId: surveyExternalRefs.surveyId, returnKey: surveys.returnKey })
    .from(surveyExternalRefs)
    .innerJoin(surveys, eq(surveys.id, surveyExternalRefs.surveyId))
    .where(eq(surveyExternalRefs.pidHash, sha256Hex(pid)));
  return row ?? null;
}

/**
 * Whether a return still earns points: the survey and its project are live, and the survey has
 * no `closesAt`, or the reference was started before it and the return comes at most
 * `RETURN_GRACE_MS` after it. A survey or project closed by hand takes no more returns.
 */
export function acceptsReturns(survey: Pick<Survey, 'status' | 'closesAt'>, projectStatus: ProjectStatus, refCreatedAt: Date, now: Date): boolean {
  if (survey.status !== 'live' || projectStatus !== 'live') return false;
  if (!survey.closesAt) return true;
  return refCreatedAt.getTime() < survey.closesAt.getTime() && now.getTime() <= survey.closesAt.getTime() + RETURN_GRACE_MS;
}

/**
 * How an outcome arrived: the participant's browser on a return link, Alchemer's webhook
 * (confirmed), or Alchemer's export checked by an admin (the Alchemer export append tool's
 * "Confirm completes"): the export is Alchemer's word like the webhook, and behaves as it does.
 */
export type OutcomeSource = 'browser' | 'webhook' | 'export';

/** What recording an outcome did. */
export interface OutcomeResult {
  surveyId: number;
  /** True when this call changed the reference (recorded, or confirmed / corrected by the webhook). */
  recorded: boolean;
  /** The participant's outcome after the call (null: none, e.g. a webhook for a reference another one already answered for). */
  outcome: ExternalOutcome | null;
  /** Whether the participant's outcome is confirmed by the webhook after the call. */
  confirmed: boolean;
  /** Whether the return counted for points (a member, and the survey taking returns). */
  counted: boolean;
}

/**
 * Records an outcome for a reference, under the lock of (survey, participant):
 *
 * - browser: recorded only when the participant has no outcome yet (on any reference). A
 *   `complete` that counts credits the survey's points: `available` when the survey trusts
 *   returns, else `pending` until the webhook (or the export) confirms them.
 * - webhook (and export, the same): the confirmed outcome. With no outcome yet it is recorded (and a `complete` that
 *   counts credits `available` points); on the reference holding an unconfirmed browser outcome
 *   it confirms it, or corrects it (the webhook is the one the secret vouches for): `complete`
 *   makes pending points available, any other outcome voids them. A confirmed outcome is final;
 *   a reference that is not the one holding the participant's outcome changes nothing.
 *
 * Someone no longer a member, or a survey that stopped taking returns (`acceptsReturns`): the
 * outcome is recorded, nothing is credited.
 */
export async function recordOutcome(db: Db, clock: Clock, refId: number, outcome: ExternalOutcome, source: OutcomeSource): Promise<OutcomeResult> {
  return db.transaction(async (tx) => {
    const [head] = await tx
      .select({ surveyId: surveyExternalRefs.surveyId, userId: surveyExternalRefs.userId })
      .from(surveyExternalRefs)
      .where(eq(surveyExternalRefs.id, refId));
    if (!head) throw new Error(`reference ${refId}: gone`);
    await lockParticipant(tx, head.surveyId, head.userId);
    const [row] = await tx
      .select({ ref: surveyExternalRefs, survey: surveys, projectStatus: projects.status })
      .from(surveyExternalRefs)
      .innerJoin(surveys, eq(surveys.id, surveyExternalRefs.surveyId))
      .innerJoin(projects, eq(projects.id, surveys.projectId))
      .where(eq(surveyExternalRefs.id, refId));
    if (!row) throw new Error(`reference ${refId}: gone`);
    const { ref, survey } = row;
    const now = clock.now();
    const [holder] = await tx
      .select()
      .from(surveyExternalRefs)
      .where(and(eq(surveyExternalRefs.surveyId, ref.surveyId), eq(surveyExternalRefs.userId, ref.userId), isNotNull(surveyExternalRefs.outcome)))
      .orderBy(asc(surveyExternalRefs.returnedAt), asc(surveyExternalRefs.id))
      .limit(1);
    const [membership] = await tx
      .select({ userId: projectMembers.userId })
      .from(projectMembers)
      .where(and(eq(projectMembers.projectId, survey.projectId), eq(projectMembers.userId, ref.userId)))
      .limit(1);
    const counted = membership !== undefined && acceptsReturns(survey, row.projectStatus, ref.createdAt, now);
    const unchanged = (current: SurveyExternalRef): OutcomeResult => ({
      surveyId: survey.id,
      recorded: false,
      outcome: current.outcome,
      confirmed: current.confirmedAt !== null,
      counted,
    });

    if (source === 'browser') {
      if (holder) return unchanged(holder);
      await tx.update(surveyExternalRefs).set({ outcome, returnedAt: now }).where(eq(surveyExternalRefs.id, ref.id));
      await recordContribution(tx, survey.projectId, ref.userId, now);
      if (outcome === 'complete' && counted) await creditExternalSurvey(tx, clock, survey, ref.userId);
      await recordWebhookEvent(
        tx,
        'external_survey.returned',
        { projectId: survey.projectId, surveyId: survey.id, userId: ref.userId, outcome, confirmed: false },
        survey.projectId,
      );
      return { surveyId: survey.id, recorded: true, outcome, confirmed: false, counted };
    }

    if (holder && (holder.id !== ref.id || holder.confirmedAt !== null)) return unchanged(holder);
    await tx
      .update(surveyExternalRefs)
      .set(holder ? { outcome, confirmedAt: now } : { outcome, returnedAt: now, confirmedAt: now })
      .where(eq(surveyExternalRefs.id, ref.id));
    await recordContribution(tx, survey.projectId, ref.userId, now);
    const key = { userId: ref.userId, source: 'external_survey', reference: pointReference.externalSurvey(survey.id) } as const;
    const existing = await findCredit(tx, key.userId, key.source, key.reference);
    if (outcome === 'complete') {
      if (counted && !existing) await creditExternalSurvey(tx, clock, { ...survey, trustReturns: true }, ref.userId);
      else if (counted && existing?.state === 'pending') await setCreditState(tx, clock, key, 'available');
    } else if (existing && existing.state !== 'voided') {
      await setCreditState(tx, clock, key, 'voided');
    }
    await recordWebhookEvent(
      tx,
      'external_survey.returned',
      { projectId: survey.projectId, surveyId: survey.id, userId: ref.userId, outcome, confirmed: true },
      survey.projectId,
    );
    return { surveyId: survey.id, recorded: true, outcome, confirmed: true, counted };
  });
}
