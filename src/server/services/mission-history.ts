/**
 * A participant's mission history: the missions they have entries in, and each mission's entries
 * with their answers, the form version they were made on, their state, the reviewer's reason,
 * probes to answer and their points. Only their own entries, only in missions they can still see
 * (`participation.ts`'s rule); anything else is 404.
 */
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FormDefinition } from '../../shared/forms/definition.ts';
import { localizedItemTexts, type ItemTranslations } from '../../shared/projects.ts';
import { pointReference } from '../../shared/points.ts';
import type { HistoryEntry, MissionHistory, MissionHistoryItem } from '../../shared/review.ts';
import type { Db } from '../db/index.ts';
import { missionEntries, missions, pointsLedger, probes, projects } from '../db/schema/index.ts';
import { findVisibleMission, formDefinition, memberOfVisibleProject, notFound, toDate, VISIBLE_ACTIVITY_STATUSES } from './participation.ts';
import { probeViews } from './probes.ts';

/** The latest thing that happened to an entry: made, saved, submitted or reviewed. */
const entryActivity = sql`greatest(${missionEntries.createdAt}, ${missionEntries.updatedAt}, ${missionEntries.submittedAt}, ${missionEntries.reviewedAt})`;

/**
 * `GET /api/account/mission-history`: the visible missions the user has entries in (drafts
 * included), with their entries counted by state and the probes waiting for an answer; latest
 * activity first. Two grouped queries.
 */
export async function missionHistoryList(db: Db, userId: number, language?: unknown): Promise<MissionHistoryItem[]> {
  const status = missionEntries.status;
  const [rows, waiting] = await Promise.all([
    db
      .select({
        missionId: missions.id,
        title: missions.title,
        titleTranslations: sql<ItemTranslations['title'] | null>`${missions.translations}->'title'`,
        projectName: projects.name,
        points: missions.points,
        entriesMax: missions.entriesMax,
        total: sql<number>`count(*)::int`.mapWith(Number),
        approved: sql<number>`(count(*) filter (where ${status} = 'approved'))::int`.mapWith(Number),
        waiting: sql<number>`(count(*) filter (where ${status} = 'submitted'))::int`.mapWith(Number),
        changesRequested: sql<number>`(count(*) filter (where ${status} = 'changes_requested'))::int`.mapWith(Number),
        rejected: sql<number>`(count(*) filter (where ${status} = 'rejected'))::int`.mapWith(Number),
        drafts: sql<number>`(count(*) filter (where ${status} = 'draft'))::int`.mapWith(Number),
        lastActivityAt: sql<unknown>`max(${entryActivity})`,
      })
      .from(missionEntries)
      .innerJoin(missions, eq(missions.id, missionEntries.missionId))
      .innerJoin(projects, eq(projects.id, missions.projectId))
      .where(and(eq(missionEntries.userId, userId), inArray(missions.status, [...VISIBLE_ACTIVITY_STATUSES]), memberOfVisibleProject(userId)))
      .groupBy(missions.id, projects.name),
    db
      .select({ missionId: missionEntries.missionId, n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(probes)
      .innerJoin(missionEntries, eq(missionEntries.id, probes.entryId))
      .where(and(eq(missionEntries.userId, userId), isNull(probes.answeredAt)))
      .groupBy(missionEntries.missionId),
  ]);
  const waitingOf = new Map(waiting.map((row) => [row.missionId, row.n]));
  return rows
    .map((row) => ({
      missionId: row.missionId,
      title: localizedItemTexts({ title: row.title }, row.titleTranslations ? { title: row.titleTranslations } : null, language).title,
      projectName: row.projectName,
      points: row.points,
      pointsPerEntry: row.entriesMax > 1,
      entries: {
        total: row.total,
        approved: row.approved,
        waiting: row.waiting,
        changesRequested: row.changesRequested,
        rejected: row.rejected,
        drafts: row.drafts,
      },
      probesWaiting: waitingOf.get(row.missionId) ?? 0,
      lastActivityAt: (toDate(row.lastActivityAt) ?? new Date(0)).toISOString(),
    }))
    .sort((a, b) => b.lastActivityAt.localeCompare(a.lastActivityAt) || b.missionId - a.missionId);
}

/**
 * `GET /api/account/mission-history/{missionId}`: the user's entries in the mission, newest
 * first. 404 when the mission is not visible to them or they have no entry in it.
 */
export async function missionHistory(db: Db, userId: number, missionId: number, language?: unknown): Promise<MissionHistory> {
  const visible = await findVisibleMission(db, userId, missionId);
  if (!visible) throw notFound('mission');
  const mission = visible.item;
  const entries = await db
    .select()
    .from(missionEntries)
    .where(and(eq(missionEntries.missionId, mission.id), eq(missionEntries.userId, userId)))
    .orderBy(desc(missionEntries.createdAt), desc(missionEntries.id));
  if (entries.length === 0) throw notFound('mission');
  const entryIds = entries.map((entry) => entry.id);
  const references = entryIds.map((id) => pointReference.missionEntry(id));
  const [probeList, credits] = await Promise.all([
    probeViews(db, entryIds, { withAsker: false }),
    db
      .select({ reference: pointsLedger.reference, points: pointsLedger.points, state: pointsLedger.state })
      .from(pointsLedger)
      .where(and(eq(pointsLedger.userId, userId), eq(pointsLedger.source, 'mission'), inArray(pointsLedger.reference, references))),
  ]);
  // A mission's credit is never held (only redemptions are): the entry's view knows three states.
  const creditOf = new Map(credits.map((row) => [row.reference, { points: row.points, state: row.state === 'held' ? 'pending' : row.state }] as const));
  const definitions = new Map<number, FormDefinition>();
  for (const version of new Set(entries.map((entry) => entry.formVersion))) {
    const definition = await formDefinition(db, mission.formId, version);
    if (definition) definitions.set(version, definition);
  }
  const definitionOf = (version: number): FormDefinition => {
    const definition = definitions.get(version);
    if (!definition) throw new Error(`form ${mission.formId} has no version ${version}`);
    return definition;
  };
  const items: HistoryEntry[] = entries.map((entry) => ({
    id: entry.id,
    status: entry.status,
    answers: entry.answers,
    formVersion: entry.formVersion,
    definition: definitionOf(entry.formVersion),
    localDate: entry.localDate,
    createdAt: entry.createdAt.toISOString(),
    submittedAt: entry.submittedAt?.toISOString() ?? null,
    reviewReason: entry.reviewReason,
    reviewedAt: entry.reviewedAt?.toISOString() ?? null,
    resubmission: entry.submissionCount >= 2,
    probes: probeList.get(entry.id) ?? [],
    points: creditOf.get(pointReference.missionEntry(entry.id)) ?? null,
  }));
  return {
    missionId: mission.id,
    ...localizedItemTexts({ title: mission.title, instructions: mission.instructions }, mission.translations, language),
    projectName: visible.projectName,
    points: mission.points,
    pointsPerEntry: mission.entriesMax > 1,
    review: mission.review,
    entries: items,
  };
}
