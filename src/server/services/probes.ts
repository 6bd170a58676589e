/**
 * Probes: follow-up questions a moderator asks on a submitted entry; the entry's owner answers
 * each once, from their mission history. The review queue can list the entries whose probes wait.
 */
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { ProbeView } from '../../shared/review.ts';
import type { Db } from '../db/index.ts';
import { missionEntries, missions, probes, projects, users, type Probe } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import type { JobSender } from '../jobs/queue.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { notify } from './notifications.ts';
import { memberOfVisibleProject, VISIBLE_ACTIVITY_STATUSES } from './participation.ts';

/** The 409 for a decision or a probe on an entry that has not been submitted yet. */
export const notReviewable = () => new ApiError(409, 'not_reviewable', 'This entry has not been submitted yet');

/** Where a participant reads about their entries of a mission (the link of every review notification). */
export const historyLink = (missionId: number) => `/account/mission-history/${missionId}`;

function probeView(row: Probe, askedBy?: ProbeView['askedBy']): ProbeView {
  const view: ProbeView = {
    id: row.id,
    question: row.question,
    askedAt: row.askedAt.toISOString(),
    answer: row.answer,
    answeredAt: row.answeredAt?.toISOString() ?? null,
  };
  if (askedBy !== undefined) view.askedBy = askedBy;
  return view;
}

/**
 * The probes of these entries, oldest first, keyed by entry id. `withAsker` adds who asked
 * (moderators' screens only; participants never see who reviewed them).
 */
export async function probeViews(db: Db, entryIds: readonly number[], options: { withAsker: boolean }): Promise<Map<number, ProbeView[]>> {
  const out = new Map<number, ProbeView[]>();
  if (entryIds.length === 0) return out;
  const rows = await db
    .select({ probe: probes, asker: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email } })
    .from(probes)
    .leftJoin(users, eq(users.id, probes.askedBy))
    .where(inArray(probes.entryId, [...entryIds]))
    .orderBy(asc(probes.askedAt), asc(probes.id));
  for (const { probe, asker } of rows) {
    const askedBy = options.withAsker ? asker : undefined;
    const list = out.get(probe.entryId) ?? [];
    list.push(probeView(probe, askedBy));
    out.set(probe.entryId, list);
  }
  return out;
}

/**
 * `POST /api/admin/submissions/{id}/probes`: asks the entry's owner a question (the entry must
 * have been submitted: 409 `not_reviewable` for a draft; 404 when unknown). The participant is
 * notified (`probe`); audited `submission.probe`. All in one transaction.
 */
export async function askProbe(
  db: Db,
  clock: Clock,
  entryId: number,
  question: string,
  asker: { actorId: number; ip: string | null },
  jobs: JobSender,
): Promise<ProbeView> {
  return db.transaction(async (tx) => {
    const [entry] = await tx
      .select({ id: missionEntries.id, userId: missionEntries.userId, status: missionEntries.status, missionId: missions.id, missionTitle: missions.title })
      .from(missionEntries)
      .innerJoin(missions, eq(missions.id, missionEntries.missionId))
      .where(eq(missionEntries.id, entryId));
    if (!entry) throw new ApiError(404, 'not_found', 'No such submission');
    if (entry.status === 'draft') throw notReviewable();
    const [row] = await tx.insert(probes).values({ entryId, askedBy: asker.actorId, question, askedAt: clock.now() }).returning();
    if (!row) throw new Error('insert returned no probe');
    await notify(
      tx,
      {
        userId: entry.userId,
        kind: 'probe',
        notice: { key: 'probe', mission: entry.missionTitle, question },
        link: historyLink(entry.missionId),
      },
      jobs,
    );
    await audit(tx, {
      actorId: asker.actorId,
      via: 'api',
      action: 'submission.probe',
      targetType: 'mission_entry',
      targetId: entryId,
      after: { probeId: row.id, question: question.length > 200 ? `${question.slice(0, 200)}…` : question },
      ip: asker.ip,
    });
    const [who] = await tx
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(eq(users.id, asker.actorId));
    return probeView(row, who ?? null);
  });
}

/**
 * `POST /api/account/probes/{id}/answer`: the entry's owner answers a probe, once. 404 for a probe
 * on someone else's entry, or on a mission they can no longer see (the mission history's rule);
 * 409 `already_answered` when it has an answer (of two answers at once, one wins).
 */
export async function answerProbe(db: Db, clock: Clock, probeId: number, userId: number, answer: string): Promise<ProbeView> {
  const [found] = await db
    .select({ id: probes.id })
    .from(probes)
    .innerJoin(missionEntries, eq(missionEntries.id, probes.entryId))
    .innerJoin(missions, eq(missions.id, missionEntries.missionId))
    .innerJoin(projects, eq(projects.id, missions.projectId))
    .where(
      and(eq(probes.id, probeId), eq(missionEntries.userId, userId), inArray(missions.status, [...VISIBLE_ACTIVITY_STATUSES]), memberOfVisibleProject(userId)),
    );
  if (!found) throw new ApiError(404, 'not_found', 'No such probe');
  const [row] = await db
    .update(probes)
    .set({ answer, answeredAt: clock.now() })
    .where(and(eq(probes.id, probeId), isNull(probes.answeredAt)))
    .returning();
  if (!row) throw new ApiError(409, 'already_answered', 'This question has already been answered');
  return probeView(row);
}
