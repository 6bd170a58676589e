/**
 * Mission groups for moderators and admins: a project's list, create, update (the mission list
 * replaced in the order given), delete. Every mission of a group belongs to its project.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { AdminMissionGroup } from '../../shared/mission-groups.ts';
import type { missionGroupCreateSchema, missionGroupPatchSchema } from '../../shared/schemas/mission-groups.ts';
import type { Db } from '../db/index.ts';
import { missionGroupMissions, missionGroups, missions, type MissionGroup } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from './clock.ts';
import { fieldError } from './projects.ts';

export type MissionGroupCreate = z.output<typeof missionGroupCreateSchema>;
export type MissionGroupPatch = z.output<typeof missionGroupPatchSchema>;

export const OTHER_PROJECT_MISSIONS = 'Choose missions of this project';

/** The group's mission ids in order, for each group. */
async function missionIdsOf(db: Db, groupIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return out;
  const rows = await db
    .select({ groupId: missionGroupMissions.groupId, missionId: missionGroupMissions.missionId })
    .from(missionGroupMissions)
    .where(inArray(missionGroupMissions.groupId, [...groupIds]))
    .orderBy(asc(missionGroupMissions.groupId), asc(missionGroupMissions.position));
  for (const row of rows) out.get(row.groupId)?.push(row.missionId);
  return out;
}

function view(row: MissionGroup, missionIds: number[]): AdminMissionGroup {
  return {
    id: row.id,
    projectId: row.projectId,
    title: row.title,
    description: row.description,
    missionIds,
    unlock: row.unlock,
    unlockOn: row.unlockOn,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function missionGroupView(db: Db, row: MissionGroup): Promise<AdminMissionGroup> {
  return view(row, (await missionIdsOf(db, [row.id])).get(row.id) ?? []);
}

/** A project's mission groups, oldest first. */
export async function listProjectMissionGroups(db: Db, projectId: number): Promise<AdminMissionGroup[]> {
  const rows = await db.select().from(missionGroups).where(eq(missionGroups.projectId, projectId)).orderBy(asc(missionGroups.createdAt), asc(missionGroups.id));
  const ids = await missionIdsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => view(row, ids.get(row.id) ?? []));
}

/** The group, or 404 `not_found`. */
export async function existingMissionGroup(db: Db, id: number): Promise<MissionGroup> {
  const [row] = await db.select().from(missionGroups).where(eq(missionGroups.id, id)).limit(1);
  if (!row) throw new ApiError(404, 'not_found', 'No such mission group');
  return row;
}

/** 400 on `missionIds` unless every id is a mission of the project. */
async function checkMissionsOfProject(db: Db, projectId: number, missionIds: readonly number[]): Promise<void> {
  if (missionIds.length === 0) return;
  const rows = await db
    .select({ id: missions.id })
    .from(missions)
    .where(and(eq(missions.projectId, projectId), inArray(missions.id, [...missionIds])));
  if (rows.length !== new Set(missionIds).size) throw fieldError('missionIds', OTHER_PROJECT_MISSIONS);
}

async function replaceMissions(db: Db, groupId: number, missionIds: readonly number[]): Promise<void> {
  await db.delete(missionGroupMissions).where(eq(missionGroupMissions.groupId, groupId));
  if (missionIds.length > 0) await db.insert(missionGroupMissions).values(missionIds.map((missionId, position) => ({ groupId, missionId, position })));
}

export async function createMissionGroup(db: Db, clock: Clock, projectId: number, input: MissionGroupCreate): Promise<AdminMissionGroup> {
  await checkMissionsOfProject(db, projectId, input.missionIds);
  const now = clock.now();
  const row = await db.transaction(async (tx) => {
    const [group] = await tx
      .insert(missionGroups)
      .values({ projectId, title: input.title, description: input.description, unlock: input.unlock, unlockOn: input.unlockOn, createdAt: now, updatedAt: now })
      .returning();
    if (!group) throw new Error('insert returned no row');
    await replaceMissions(tx, group.id, input.missionIds);
    return group;
  });
  return view(row, [...input.missionIds]);
}

/** Changes the given fields; `missionIds` replaces the list, in order. Returns the group before and after. */
export async function updateMissionGroup(
  db: Db,
  clock: Clock,
  id: number,
  patch: MissionGroupPatch,
): Promise<{ before: AdminMissionGroup; after: AdminMissionGroup }> {
  const row = await existingMissionGroup(db, id);
  const before = await missionGroupView(db, row);
  if (patch.missionIds) await checkMissionsOfProject(db, row.projectId, patch.missionIds);
  const values: Partial<typeof missionGroups.$inferInsert> = { updatedAt: clock.now() };
  if (patch.title !== undefined) values.title = patch.title;
  if (patch.description !== undefined) values.description = patch.description;
  if (patch.unlock !== undefined) values.unlock = patch.unlock;
  if (patch.unlockOn !== undefined) values.unlockOn = patch.unlockOn;
  const updated = await db.transaction(async (tx) => {
    const [group] = await tx.update(missionGroups).set(values).where(eq(missionGroups.id, id)).returning();
    if (!group) throw new ApiError(404, 'not_found', 'No such mission group');
    if (patch.missionIds) await replaceMissions(tx, id, patch.missionIds);
    return group;
  });
  return { before, after: view(updated, patch.missionIds ? [...patch.missionIds] : before.missionIds) };
}

/** Deletes the group (its mission list goes with it; the missions stay); null when unknown. */
export async function deleteMissionGroup(db: Db, id: number): Promise<AdminMissionGroup | null> {
  const row = await existingMissionGroup(db, id).catch(() => null);
  if (!row) return null;
  const before = await missionGroupView(db, row);
  const [deleted] = await db.delete(missionGroups).where(eq(missionGroups.id, id)).returning({ id: missionGroups.id });
  return deleted ? before : null;
}
