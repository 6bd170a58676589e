/**
 * Projects for moderators and admins: the list (search, status, counts), one project, create and
 * update. The routes (`routes/admin-projects.ts`) read requests and shape answers; the rules are
 * here. Helpers the other programme services share (ISO dates, audit summaries) are here too.
 */
import { and, count, desc, eq, ilike, inArray, ne, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { AdminPage, AdminProject, AdminProjectListItem } from '../../shared/projects.ts';
import type { projectCreateSchema, projectListQuerySchema, projectPatchSchema } from '../../shared/schemas/projects.ts';
import type { Db } from '../db/index.ts';
import { missionGroups, missions, projectMembers, projects, surveys, type Project } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from './clock.ts';
import { containsPattern } from './search.ts';

export type ProjectCreate = z.output<typeof projectCreateSchema>;
export type ProjectPatch = z.output<typeof projectPatchSchema>;
export type ProjectListQuery = z.output<typeof projectListQuerySchema>;

/** A timestamp as the API gives it (ISO 8601, UTC), or null. */
export const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** A 400 `validation_failed` with one field's message (the same shape as a schema error). */
export function fieldError(field: string, message: string): ApiError {
  return new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { [field]: [message] } });
}

/** Long texts in audit summaries are cut to this many characters. */
const AUDIT_TEXT_MAX = 200;
const auditValue = (value: unknown): unknown => (typeof value === 'string' && value.length > AUDIT_TEXT_MAX ? `${value.slice(0, AUDIT_TEXT_MAX)}…` : value);

/** A record for the audit log, long texts cut. */
export function auditSummary(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, auditValue(value)]));
}

/** The fields that changed between two plain records, as `{ before, after }` for the audit log (long texts cut). */
export function auditChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const out = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key] ?? null) === JSON.stringify(after[key] ?? null)) continue;
    out.before[key] = auditValue(before[key] ?? null);
    out.after[key] = auditValue(after[key] ?? null);
  }
  return out;
}

export async function findProject(db: Db, id: number): Promise<Project | null> {
  const [row] = await db.select().from(projects).where(eq(projects.id, id)).limit(1);
  return row ?? null;
}

/** The project, or 404 `not_found`. */
export async function existingProject(db: Db, id: number): Promise<Project> {
  const project = await findProject(db, id);
  if (!project) throw new ApiError(404, 'not_found', 'No such project');
  return project;
}

type ProjectCounts = AdminProject['counts'];

/** Members, surveys, missions and mission groups of each project: one grouped query per kind. */
async function projectCounts(db: Db, ids: readonly number[]): Promise<Map<number, ProjectCounts>> {
  const out = new Map<number, ProjectCounts>(ids.map((id) => [id, { members: 0, surveys: 0, missions: 0, missionGroups: 0 }]));
  if (ids.length === 0) return out;
  const list = [...ids];
  const [members, surveyRows, missionRows, groupRows] = await Promise.all([
    db
      .select({ id: projectMembers.projectId, n: count() })
      .from(projectMembers)
      .where(inArray(projectMembers.projectId, list))
      .groupBy(projectMembers.projectId),
    db.select({ id: surveys.projectId, n: count() }).from(surveys).where(inArray(surveys.projectId, list)).groupBy(surveys.projectId),
    db.select({ id: missions.projectId, n: count() }).from(missions).where(inArray(missions.projectId, list)).groupBy(missions.projectId),
    db.select({ id: missionGroups.projectId, n: count() }).from(missionGroups).where(inArray(missionGroups.projectId, list)).groupBy(missionGroups.projectId),
  ]);
  for (const row of members) {
    const c = out.get(row.id);
    if (c) c.members = row.n;
  }
  for (const row of surveyRows) {
    const c = out.get(row.id);
    if (c) c.surveys = row.n;
  }
  for (const row of missionRows) {
    const c = out.get(row.id);
    if (c) c.missions = row.n;
  }
  for (const row of groupRows) {
    const c = out.get(row.id);
    if (c) c.missionGroups = row.n;
  }
  return out;
}

const emptyCounts = (): ProjectCounts => ({ members: 0, surveys: 0, missions: 0, missionGroups: 0 });

/** A page of projects, most recently changed first: search in name and client; archived ones only with `status=archived`. */
export async function listProjects(db: Db, query: ProjectListQuery): Promise<AdminPage<AdminProjectListItem>> {
  const conditions: SQL[] = [query.status ? eq(projects.status, query.status) : ne(projects.status, 'archived')];
  if (query.q) {
    const pattern = containsPattern(query.q);
    const search = or(ilike(projects.name, pattern), ilike(projects.client, pattern));
    if (search) conditions.push(search);
  }
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(projects)
      .where(where)
      .orderBy(desc(projects.updatedAt), desc(projects.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ value: count() }).from(projects).where(where),
  ]);
  const counts = await projectCounts(
    db,
    rows.map((row) => row.id),
  );
  return {
    items: rows.map((row) => ({
      id: row.id,
      name: row.name,
      client: row.client,
      status: row.status,
      startsAt: row.startsAt,
      endsAt: row.endsAt,
      counts: counts.get(row.id) ?? emptyCounts(),
      updatedAt: row.updatedAt.toISOString(),
    })),
    total: total?.value ?? 0,
  };
}

/** The whole project as its page loads it, with counts. */
export async function projectView(db: Db, project: Project): Promise<AdminProject> {
  const counts = await projectCounts(db, [project.id]);
  return {
    id: project.id,
    name: project.name,
    client: project.client,
    description: project.description,
    status: project.status,
    startsAt: project.startsAt,
    endsAt: project.endsAt,
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
    counts: counts.get(project.id) ?? emptyCounts(),
  };
}

/** What the audit log keeps of a project. */
export const projectSummary = (project: Project) => ({
  name: project.name,
  client: project.client,
  description: project.description,
  status: project.status,
  startsAt: project.startsAt,
  endsAt: project.endsAt,
});

export async function createProject(db: Db, clock: Clock, input: ProjectCreate, actorId: number): Promise<Project> {
  const now = clock.now();
  const [row] = await db
    .insert(projects)
    .values({
      name: input.name,
      client: input.client,
      description: input.description,
      status: input.status,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      createdBy: actorId,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/**
 * Changes the given fields. The dates are checked against the ones kept (`endsAt` on or after
 * `startsAt`); 404 for an unknown project. Returns the project before and after.
 */
export async function updateProject(db: Db, clock: Clock, id: number, patch: ProjectPatch): Promise<{ before: Project; after: Project }> {
  const before = await existingProject(db, id);
  const startsAt = patch.startsAt === undefined ? before.startsAt : patch.startsAt;
  const endsAt = patch.endsAt === undefined ? before.endsAt : patch.endsAt;
  if (startsAt && endsAt && endsAt < startsAt) throw fieldError('endsAt', 'Must be on or after the start date');
  const values: Partial<typeof projects.$inferInsert> = { updatedAt: clock.now() };
  if (patch.name !== undefined) values.name = patch.name;
  if (patch.client !== undefined) values.client = patch.client;
  if (patch.description !== undefined) values.description = patch.description;
  if (patch.status !== undefined) values.status = patch.status;
  if (patch.startsAt !== undefined) values.startsAt = patch.startsAt;
  if (patch.endsAt !== undefined) values.endsAt = patch.endsAt;
  const [after] = await db.update(projects).set(values).where(eq(projects.id, id)).returning();
  if (!after) throw new ApiError(404, 'not_found', 'No such project');
  return { before, after };
}
